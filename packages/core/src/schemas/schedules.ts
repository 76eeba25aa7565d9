import { Type, type Static } from '../typebox.js';
import { Id, MAX_REQUEST_INTEGER, Nullable, ServerIdParams, Timestamp } from './common.js';

export const SCHEDULE_ACTIONS = [
  'rcon_say',
  'rcon_command',
  'restart',
  'stop',
  'start',
  'backup',
  'set_mission',
  'wait_until_empty',
  'update_server',
  'update_mods',
] as const;
export const ScheduleAction = Type.Union(SCHEDULE_ACTIONS.map((a) => Type.Literal(a)));
export type ScheduleAction = Static<typeof ScheduleAction>;

/** A day at most, either way: a run's steps happen within a day of its time. */
const MAX_OFFSET_S = 86_400;

export const ScheduleStep = Type.Object(
  {
    at_s: Type.Integer({
      minimum: -MAX_OFFSET_S,
      maximum: MAX_OFFSET_S,
      description: "Seconds from the schedule's (cron) time, not from the step before: negative before it (docs/operations.md).",
    }),
    action: ScheduleAction,
    payload: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "The action's input, by action: docs/operations.md (Schedules).",
      }),
    ),
    continue_on_failure: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type ScheduleStep = Static<typeof ScheduleStep>;

export const ScheduleConditions = Type.Object(
  {
    when_running: Type.Optional(Type.Boolean({ description: 'Only while the server runs.' })),
    players_max: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000, description: 'Only with at most this many players in (read live).' }),
    ),
    players_min: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Only with at least this many players in.' })),
    hold_s: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3600, description: 'The conditions must hold this long before the run starts.' }),
    ),
  },
  { additionalProperties: false },
);
export type ScheduleConditions = Static<typeof ScheduleConditions>;

export const RestartTemplate = Type.Object(
  {
    kind: Type.Literal('restart_with_warnings', {
      description:
        "The restart at the schedule's time (at_s 0), a warning `warn_minutes` before it each (negative at_s), an optional " +
        'backup just before the restart.',
    }),
    warn_minutes: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 240 }), { minItems: 1, maxItems: 20, default: [15, 10, 5, 1] }),
    ),
    message: Type.Optional(Type.String({ minLength: 1, maxLength: 200, default: 'Server restart in {minutes} min' })),
    backup: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const Misfire = Type.Union(
  [Type.Literal('skip'), Type.Object({ run_if_late_by_s: Type.Integer({ minimum: 1, maximum: 86_400 }) }, { additionalProperties: false })],
  {
    description: 'A run found late (the service was down at its time): `skip` it, or run it when it is at most that late.',
  },
);

const scheduleFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  cron: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'Five fields (minute hour day month weekday), or six with seconds first.',
  }),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "An IANA time zone; the service's default (UTC unless set) when left out." }),
  ),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  misfire: Type.Optional(Misfire),
  jitter_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, default: 0 })),
  overlap: Type.Optional(
    Type.Union([Type.Literal('skip'), Type.Literal('queue')], {
      default: 'skip',
      description: 'What a run due while the last is still running does.',
    }),
  ),
  conditions: Type.Optional(ScheduleConditions),
};

export const CreateScheduleRequest = Type.Object(
  {
    ...scheduleFields,
    steps: Type.Optional(Type.Array(ScheduleStep, { minItems: 1, maxItems: 50 })),
    template: Type.Optional(RestartTemplate),
  },
  { additionalProperties: false, description: 'Either `steps` or `template`.' },
);
export type CreateScheduleRequest = Static<typeof CreateScheduleRequest>;

export const UpdateScheduleRequest = Type.Partial(CreateScheduleRequest, { additionalProperties: false });
export type UpdateScheduleRequest = Static<typeof UpdateScheduleRequest>;

export const Schedule = Type.Object(
  {
    id: Type.Integer(),
    server_id: Type.Integer(),
    name: Type.String(),
    cron: Type.String(),
    timezone: Type.String(),
    enabled: Type.Boolean(),
    misfire: Misfire,
    jitter_s: Type.Integer(),
    overlap: Type.Union([Type.Literal('skip'), Type.Literal('queue')]),
    conditions: ScheduleConditions,
    steps: Type.Array(ScheduleStep),
    next_run_at: Type.Union([Timestamp, Type.Null()], {
      description:
        "The next run's time (its cron time, the jitter added): the time of its steps at `at_s` 0; steps with a negative " +
        '`at_s` begin before it.',
    }),
    next_runs: Type.Array(Timestamp, {
      description: 'The next five times (UTC), from the cron expression in its time zone: the times of the steps at `at_s` 0.',
    }),
    disabled_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Schedule' },
);
export type Schedule = Static<typeof Schedule>;

export const ScheduleIdParams = Type.Object({ ...ServerIdParams.properties, schedule_id: Id });

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'skipped'] as const;
export const StepResult = Type.Object({
  at_s: Type.Integer(),
  action: ScheduleAction,
  status: Type.Union(['pending', 'running', 'succeeded', 'failed', 'skipped'].map((s) => Type.Literal(s))),
  at: Nullable(Timestamp),
  error: Nullable(Type.String()),
});
export type StepResult = Static<typeof StepResult>;

export const ScheduleRun = Type.Object(
  {
    id: Type.Integer(),
    schedule_id: Type.Integer(),
    due_at: Timestamp,
    trigger: Type.Union([Type.Literal('schedule'), Type.Literal('manual')]),
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
    status: Type.Union(RUN_STATUSES.map((s) => Type.Literal(s))),
    reason: Nullable(Type.String()),
    steps: Type.Array(StepResult),
  },
  { $id: 'ScheduleRun' },
);
export type ScheduleRun = Static<typeof ScheduleRun>;

export const ScheduleRunPage = Type.Object({ total: Type.Integer(), items: Type.Array(ScheduleRun) }, { $id: 'ScheduleRunPage' });
export const ScheduleRunQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REQUEST_INTEGER, default: 0 })),
  },
  { additionalProperties: false },
);
export const RunStarted = Type.Object({ run_id: Type.Integer() }, { $id: 'RunStarted' });

export const ScheduleRunEventData = Type.Object({
  schedule_id: Type.Integer(),
  run_id: Type.Integer(),
  phase: Type.Union([Type.Literal('started'), Type.Literal('step'), Type.Literal('finished'), Type.Literal('skipped')]),
  status: Type.String(),
  step: Type.Optional(StepResult),
  reason: Nullable(Type.String()),
});
