import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client, isAdmin } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { ConfirmButton } from '../../components/confirm.js';
import { useQuery } from '../../cache/use-query.js';
import type { TabProps } from './server-page.js';
import { ScheduleForm } from './schedule-form.js';
import { offsetText, planText, stepSentence, type Schedule } from './schedule-text.js';

type Run = ResponseOf<Endpoints['listScheduleRuns']>['items'][number];

const viewerZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** A time in the admin's own zone, and in the schedule's when it is another. */
function when(iso: string, zone: string): string {
  const format = (timeZone: string) => new Date(iso).toLocaleString(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  return zone === viewerZone ? format(zone) : `${format(viewerZone)} (${format(zone)} ${zone})`;
}

const STEP_LABELS: Record<string, string> = {
  rcon_say: 'Say',
  rcon_command: 'Command',
  restart: 'Restart',
  stop: 'Stop',
  start: 'Start',
  backup: 'Backup',
  set_mission: 'Set mission',
  wait_until_empty: 'Wait until empty',
};
/** A time of the next run's, in the admin's zone: the schedule's time moved by a step's offset. */
const timeOf = (iso: string, offsetS: number) =>
  new Date(Date.parse(iso) + offsetS * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

/** The server's schedules: their next runs, run now, enable or disable, history, and new ones. */
export function SchedulesTab({ server }: TabProps) {
  const admin = isAdmin();
  const { data, error, reload } = useQuery(`schedules:${server.id}:`, () => client.schedules.list(server.id));
  const action = useAction();
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const toggle = (s: Schedule) =>
    action.run(async () => (await client.schedules.update(server.id, s.id, { enabled: !s.enabled }), reload()));
  const runNow = (s: Schedule) => action.run(async () => (await client.schedules.run(server.id, s.id), setOpen(s.id)));
  const remove = (s: Schedule) => action.run(async () => (await client.schedules.delete(server.id, s.id), reload()));

  return (
    <div class="schedules">
      <Problem error={error} />
      <Problem error={action.error} onDismiss={action.dismiss} />
      {admin && !creating && (
        <div class="toolbar">
          <button type="button" onClick={() => setCreating(true)}>
            New schedule
          </button>
        </div>
      )}
      {creating && <ScheduleForm serverId={server.id} onDone={(made) => (setCreating(false), made && reload())} />}
      {data?.length === 0 && !creating && (
        <p class="empty">No schedules. A nightly restart with in-game warnings is one click away under “New schedule”.</p>
      )}
      <ul class="schedule-list">
        {data?.map((s) => (
          <li key={s.id} class="schedule" data-schedule-id={s.id}>
            <div class="schedule-head">
              <strong>{s.name}</strong>
              <span class="mono small">
                {s.cron} · {s.timezone}
              </span>
              {!s.enabled && <span class="status status-stopped">disabled</span>}
            </div>
            {s.disabled_reason && <p class="notice">{s.disabled_reason}</p>}
            {s.next_run_at && <p class="plan">Next: {planText(s.steps, (offsetS) => timeOf(s.next_run_at!, offsetS))}</p>}
            <p class="small">
              Next run: {s.next_run_at ? when(s.next_run_at, s.timezone) : '—'}
              {s.next_runs.length > 1 && (
                <span>
                  {' '}
                  · then{' '}
                  {s.next_runs
                    .slice(1, 3)
                    .map((t) => when(t, s.timezone))
                    .join(', ')}
                </span>
              )}
            </p>
            <ol class="steps small">
              {s.steps.map((step, i) => (
                <li key={i}>
                  {offsetText(step.at_s)}: {stepSentence(step, s.steps)}
                </li>
              ))}
            </ol>
            <div class="toolbar">
              {admin && (
                <>
                  <button type="button" onClick={() => runNow(s)}>
                    Run now
                  </button>
                  <button type="button" class="quiet" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s.id)}>
                    Edit
                  </button>
                  <button type="button" class="quiet" onClick={() => toggle(s)}>
                    {s.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete ${s.name}`}
                    title={`Delete “${s.name}”?`}
                    message="The schedule and its history go; a run under way stops."
                    onConfirm={() => remove(s)}
                  />
                </>
              )}
              <button type="button" class="quiet" aria-expanded={open === s.id} onClick={() => setOpen(open === s.id ? null : s.id)}>
                History
              </button>
            </div>
            {editing === s.id && (
              <ScheduleForm serverId={server.id} schedule={s} onDone={(saved) => (setEditing(null), saved && reload())} />
            )}
            {open === s.id && <RunHistory serverId={server.id} schedule={s} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function RunHistory({ serverId, schedule }: { serverId: number; schedule: Schedule }) {
  const { data, error } = useQuery(`schedule-runs:${serverId}:${schedule.id}`, () =>
    client.schedules.runs(serverId, schedule.id, { limit: 20 }),
  );
  return (
    <div class="runs" aria-label={`Runs of ${schedule.name}`}>
      <Problem error={error} />
      {data?.items.length === 0 && <p class="empty small">No runs yet.</p>}
      <ul>
        {data?.items.map((run: Run) => (
          <li key={run.id}>
            <span class={`run-status run-${run.status}`}>{run.status}</span> {when(run.started_at ?? run.due_at, schedule.timezone)}
            {run.trigger === 'manual' && ' (run now)'}
            {run.reason && <span class="small"> — {run.reason}</span>}
            <ul class="small">
              {run.steps.map((step, i) => (
                <li key={i}>
                  {offsetText(step.at_s)}: {STEP_LABELS[step.action] ?? step.action} — {step.status}
                  {step.error && ` — ${step.error}`}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}
