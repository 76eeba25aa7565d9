import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';

type Made = ResponseOf<Endpoints['createSchedule']>;
type Body = Parameters<typeof client.schedules.create>[1];
type Step = NonNullable<Body['steps']>[number];

const ACTIONS: { id: Step['action']; label: string; field?: { key: string; label: string } }[] = [
  { id: 'rcon_say', label: 'Say to everyone', field: { key: 'message', label: 'Message ({minutes} until the restart)' } },
  { id: 'rcon_command', label: 'RCon command', field: { key: 'command', label: 'Command' } },
  { id: 'wait_until_empty', label: 'Wait until empty', field: { key: 'max_wait_s', label: 'At most (s), then go on' } },
  { id: 'set_mission', label: 'Set mission', field: { key: 'name', label: 'Mission (name.Terrain)' } },
  { id: 'restart', label: 'Restart' },
  { id: 'stop', label: 'Stop' },
  { id: 'start', label: 'Start' },
];
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A new schedule: when (cron and time zone; the admin's own zone offered) and what — the "restart with
 * warnings" template, or steps one by one at their offsets from the run's start.
 */
export function ScheduleForm({ serverId, onDone }: { serverId: number; onDone: (made: Made | null) => void }) {
  const action = useAction();
  const [mode, setMode] = useState<'template' | 'steps'>('template');
  const [steps, setSteps] = useState<{ at_s: number; action: Step['action']; value: string }[]>([{ at_s: 0, action: 'rcon_say', value: 'Restart soon' }]);

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (k: string) => String(form.get(k) ?? '').trim();
    const body: Body = {
      name: text('name'),
      cron: text('cron'),
      timezone: text('timezone') || browserZone,
      ...(mode === 'template'
        ? {
            template: {
              kind: 'restart_with_warnings',
              warn_minutes: text('warn_minutes').split(/[\s,]+/).filter(Boolean).map(Number),
              ...(text('message') ? { message: text('message') } : {}),
            },
          }
        : { steps: steps.map(toStep) }),
    };
    void action.run(async () => onDone(await client.schedules.create(serverId, body)));
  };
  const change = (i: number, patch: Partial<(typeof steps)[number]>) => setSteps((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  return (
    <form class="schedule-form" onSubmit={submit} aria-label="New schedule">
      <div class="grid">
        <label>
          Name <input name="name" required maxLength={100} defaultValue="Nightly restart" />
        </label>
        <label>
          When (cron: minute hour day month weekday) <input name="cron" required defaultValue="0 4 * * *" class="mono" />
        </label>
        <label>
          Time zone <input name="timezone" defaultValue={browserZone} />
        </label>
      </div>
      <fieldset>
        <legend>What</legend>
        <label class="check">
          <input type="radio" name="mode" checked={mode === 'template'} onChange={() => setMode('template')} /> Restart with in-game warnings
        </label>
        <label class="check">
          <input type="radio" name="mode" checked={mode === 'steps'} onChange={() => setMode('steps')} /> Steps, one by one
        </label>
      </fieldset>
      {mode === 'template' ? (
        <div class="grid">
          <label>
            Warn this many minutes before <input name="warn_minutes" defaultValue="15, 10, 5, 1" />
          </label>
          <label>
            Warning <input name="message" defaultValue="Server restart in {minutes} min" />
          </label>
        </div>
      ) : (
        <ol class="step-rows">
          {steps.map((step, i) => {
            const field = ACTIONS.find((a) => a.id === step.action)?.field;
            return (
              <li key={i} class="toolbar">
                <label>
                  At (s from the start) <input type="number" min={0} value={step.at_s} onInput={(e) => change(i, { at_s: Number(e.currentTarget.value) })} />
                </label>
                <label>
                  Action
                  <select value={step.action} onChange={(e) => change(i, { action: e.currentTarget.value as Step['action'], value: '' })}>
                    {ACTIONS.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.label}
                      </option>
                    ))}
                  </select>
                </label>
                {field && (
                  <label class="grow">
                    {field.label} <input value={step.value} onInput={(e) => change(i, { value: e.currentTarget.value })} />
                  </label>
                )}
                <button type="button" class="quiet" onClick={() => setSteps((all) => all.filter((_, j) => j !== i))} aria-label={`Remove step ${i + 1}`}>
                  Remove
                </button>
              </li>
            );
          })}
          <li>
            <button type="button" class="quiet" onClick={() => setSteps((all) => [...all, { at_s: (all.at(-1)?.at_s ?? 0) + 60, action: 'restart', value: '' }])}>
              Add a step
            </button>
          </li>
        </ol>
      )}
      <Problem error={action.error} />
      <div class="dialog-actions">
        <button type="button" class="quiet" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit">Create schedule</button>
      </div>
    </form>
  );
}

function toStep(row: { at_s: number; action: Step['action']; value: string }): Step {
  const field = ACTIONS.find((a) => a.id === row.action)?.field;
  if (!field) return { at_s: row.at_s, action: row.action };
  if (row.action === 'wait_until_empty') return { at_s: row.at_s, action: row.action, payload: { max_wait_s: Number(row.value), on_timeout: 'proceed' } };
  // A warning may fail (the server is down) without stopping what follows.
  return { at_s: row.at_s, action: row.action, payload: { [field.key]: row.value }, continue_on_failure: row.action === 'rcon_say' };
}
