import { Type, type Static } from '../typebox.js';
import { Id, Nullable, Timestamp } from './common.js';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JobStatusSchema = Type.Union(JOB_STATUSES.map((s) => Type.Literal(s)));

/** How many of a job's last lines it keeps, and how long each may be. */
export const JOB_LOG_LINES = 100;
export const JOB_LOG_LINE_LENGTH = 500;

/**
 * A background job (an install, a download) as its caller follows it: queued on the node that owns its
 * server, run there one at a time, ended done, failed (with a code and a message) or cancelled.
 */
export const Job = Type.Object(
  {
    id: Type.Integer(),
    kind: Type.String(),
    server_id: Nullable(Type.Integer()),
    status: JobStatusSchema,
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    cancel_requested: Type.Boolean(),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
    log: Type.Array(Type.String({ maxLength: JOB_LOG_LINE_LENGTH }), { maxItems: JOB_LOG_LINES }),
  },
  { $id: 'Job', description: '`log`: its last lines (docs/operations.md).' },
);
export type Job = Static<typeof Job>;

export const JobIdParams = Type.Object({ job_id: Id });

export const JobProgressEventData = Type.Object({
  job_id: Type.Integer(),
  server_id: Nullable(Type.Integer()),
  kind: Type.String(),
  status: JobStatusSchema,
  progress: Type.Number({ minimum: 0, maximum: 1 }),
});
