import { useState } from 'preact/hooks';
import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { client } from '../../session.js';
import { Problem, useAction } from '../../components/problem.js';
import { cronAt, planText, templateOf, type Schedule } from './schedule-text.js';

type Made = ResponseOf<Endpoints['createSchedule']>;
type Body = Parameters<typeof client.schedules.create>[1];
type Step = NonNullable<Body['steps']>[number];
type Row = { at_s: number; action: Step['action']; value: string; payload?: Step['payload']; continueOnFailure?: boolean };

const ACTIONS: { id: Step['action']; label: string; field?: { key: string; label: string } }[] = [
  { id: 'rcon_say', label: 'Say to everyone', field: { key: 'message', label: 'Message ({minutes} until the restart)' } },
  { id: 'rcon_command', label: 'RCon command', field: { key: 'command', label: 'Command' } },
  { id: 'wait_until_empty', label: 'Wait until empty', field: { key: 'max_wait_s', label: 'At most (s), then go on' } },
  { id: 'set_mission', label: 'Set mission', field: { key: 'name', label: 'Mission (as the Missions tab names it)' } },
  { id: 'backup', label: 'Backup' },
  { id: 'update_mods', label: 'Update Workshop mods (else end the run)' },
  { id: 'update_server', label: 'Check for a server update (else end the run)' },
  { id: 'restart', label: 'Restart' },
  { id: 'stop', label: 'Stop' },
  { id: 'start', label: 'Start' },
];
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const DEFAULT_ROWS: Row[] = [
  { at_s: -300, action: 'rcon_say', value: 'Server restart in {minutes} min' },
  { at_s: 0, action: 'restart', value: '' },
];
const rowOf = (step: Step): Row => {
  const key = ACTIONS.find((a) => a.id === step.action)?.field?.key;
  return {
    at_s: step.at_s,
    action: step.action,
    value: key && step.payload?.[key] !== undefined ? String(step.payload[key]) : '',
    payload: step.payload,
    continueOnFailure: step.continue_on_failure,
  };
};
const warningsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/**
 * A new schedule, or a change to one: when (cron and time zone; the admin's own zone offered) — the time
 * of its action — and what: the "restart with warnings" template (the warnings before that time), or steps
 * one by one at their offsets from it. The plan is said in a line as it is typed.
 */
export function ScheduleForm({
  serverId,
  schedule,
  onDone,
}: {
  serverId: number;
  schedule?: Schedule;
  onDone: (made: Made | null) => void;
}) {
  const action = useAction();
  const template = schedule
    ? templateOf(schedule.steps)
    : { warn_minutes: [15, 10, 5, 1], message: 'Server restart in {minutes} min', backup: false };
  const [mode, setMode] = useState<'template' | 'steps'>(template ? 'template' : 'steps');
  const [cron, setCron] = useState(schedule?.cron ?? '0 4 * * *');
  const [warnings, setWarnings] = useState((template?.warn_minutes ?? [15, 10, 5, 1]).join(', '));
  const [steps, setSteps] = useState<Row[]>(schedule ? schedule.steps.map(rowOf) : DEFAULT_ROWS);
  const title = schedule ? `Edit ${schedule.name}` : 'New schedule';

  const planned: Step[] =
    mode === 'template'
      ? [
          ...warningsOf(warnings)
            .filter((m) => m > 0)
            .map((m): Step => ({ at_s: -m * 60, action: 'rcon_say' })),
          { at_s: 0, action: 'restart' },
        ]
      : steps.map(toStep);

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
              warn_minutes: warningsOf(text('warn_minutes')),
              ...(text('message') ? { message: text('message') } : {}),
              ...(template?.backup ? { backup: true } : {}),
            },
          }
        : { steps: steps.map(toStep) }),
    };
    void action.run(async () =>
      onDone(schedule ? await client.schedules.update(serverId, schedule.id, body) : await client.schedules.create(serverId, body)),
    );
  };
  const change = (i: number, patch: Partial<Row>) => setSteps((all) => all.map((s, j) => (j === i ? { ...s, ...patch } : s)));

  return (
    <form class="schedule-form" onSubmit={submit} aria-label={title}>
      <div class="grid">
        <label>
          Name <input name="name" required maxLength={100} defaultValue={schedule?.name ?? 'Nightly restart'} />
        </label>
        <label>
          When the action happens (cron: minute hour day month weekday){' '}
          <input name="cron" required value={cron} onInput={(e) => setCron(e.currentTarget.value)} class="mono" />
        </label>
        <label>
          Time zone <input name="timezone" defaultValue={schedule?.timezone ?? browserZone} />
        </label>
      </div>
      <fieldset>
        <legend>What</legend>
        <label class="check">
          <input type="radio" name="mode" checked={mode === 'template'} onChange={() => setMode('template')} /> Restart with in-game
          warnings
        </label>
        <label class="check">
          <input type="radio" name="mode" checked={mode === 'steps'} onChange={() => setMode('steps')} /> Steps, one by one
        </label>
      </fieldset>
      {mode === 'template' ? (
        <div class="grid">
          <label>
            Warn this many minutes before <input name="warn_minutes" value={warnings} onInput={(e) => setWarnings(e.currentTarget.value)} />
          </label>
          <label>
            Warning <input name="message" defaultValue={template?.message ?? 'Server restart in {minutes} min'} />
          </label>
        </div>
      ) : (
        <div>
          <ol class="step-rows">
            {steps.map((step, i) => {
              const field = ACTIONS.find((a) => a.id === step.action)?.field;
              return (
                <li key={i}>
                  <span class="step-no" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <label>
                    At (s from the set time; negative: before it){' '}
                    <input type="number" value={step.at_s} onInput={(e) => change(i, { at_s: Number(e.currentTarget.value) })} />
                  </label>
                  <label>
                    Action
                    <select
                      value={step.action}
                      onChange={(e) =>
                        change(i, {
                          action: e.currentTarget.value as Step['action'],
                          value: '',
                          payload: undefined,
                          continueOnFailure: undefined,
                        })
                      }
                    >
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
                  <button
                    type="button"
                    class="quiet"
                    onClick={() => setSteps((all) => all.filter((_, j) => j !== i))}
                    aria-label={`Remove step ${i + 1}`}
                  >
                    Remove
                  </button>
                </li>
              );
            })}
          </ol>
          <button
            type="button"
            class="quiet"
            onClick={() => setSteps((all) => [...all, { at_s: (all.at(-1)?.at_s ?? 0) + 60, action: 'restart', value: '' }])}
          >
            Add a step
          </button>
        </div>
      )}
      <p class="plan" aria-live="polite">
        {planText(planned, cronAt(cron))}
      </p>
      <Problem error={action.error} />
      <div class="dialog-actions">
        <button type="button" class="quiet" onClick={() => onDone(null)}>
          Cancel
        </button>
        <button type="submit">{schedule ? 'Save schedule' : 'Create schedule'}</button>
      </div>
    </form>
  );
}

function toStep(row: Row): Step {
  const field = ACTIONS.find((a) => a.id === row.action)?.field;
  const kept = row.payload ?? {};
  // A warning may fail (the server is down) without stopping what follows; a step being edited keeps its own choice.
  const continue_on_failure = row.continueOnFailure ?? row.action === 'rcon_say';
  if (!field) return { at_s: row.at_s, action: row.action, continue_on_failure, ...(Object.keys(kept).length ? { payload: kept } : {}) };
  if (row.action === 'wait_until_empty')
    return {
      at_s: row.at_s,
      action: row.action,
      continue_on_failure,
      payload: { on_timeout: 'proceed', ...kept, max_wait_s: Number(row.value) },
    };
  return { at_s: row.at_s, action: row.action, payload: { ...kept, [field.key]: row.value }, continue_on_failure };
}
