import { Type, type Static } from '../typebox.js';
import { Nullable, pageQuery, Timestamp } from './common.js';
import { ServerStatus } from './servers.js';
import { ActorKindSchema } from './actor.js';

export const StartResponse = Type.Object(
  { status: Type.Literal('starting'), pid: Type.Integer() },
  { $id: 'StartResponse', description: 'The process was spawned; `server_status` events follow it to running.' },
);

export const StopRequest = Type.Object(
  {
    force: Type.Optional(Type.Boolean({ default: false, description: 'Skip the graceful shutdown through remote admin.' })),
    reason: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false },
);
export type StopRequest = Static<typeof StopRequest>;

export const StoppedResponse = Type.Object({ status: Type.Literal('stopped') }, { $id: 'StoppedResponse' });

/** What the audit trail records: actions of users and keys on servers and on the service, and what the supervisor did by itself. */
export const AuditEventType = Type.Union(
  (
    [
      'server_created',
      'server_imported',
      'server_updated',
      'server_deleted',
      'config_changed',
      'start',
      'stop',
      'restart',
      'kill',
      'command',
      'kick',
      'ban',
      'unban',
      'ban_file_changed',
      'log_file_deleted',
      'mission_uploaded',
      'mission_deleted',
      'mission_played',
      'running',
      'start_failed',
      'crashed',
      'auto_restart',
      'adopted',
      'lost',
      'stop_timeout',
      'headless_crashed',
      'headless_restarted',
      'headless_gave_up',
      'schedule_created',
      'schedule_updated',
      'schedule_deleted',
      'schedule_disabled',
      'schedule_run',
      'backup_started',
      'backup_failed',
      'backup_updated',
      'backup_deleted',
      'backup_restored',
      'logs_cleared',
      'user_created',
      'user_role_changed',
      'user_deleted',
      'password_changed',
      'password_reset',
      'api_key_created',
      'api_key_revoked',
      'session_ended',
      'sessions_ended',
      'two_factor_enabled',
      'two_factor_disabled',
      'two_factor_reset',
      'webhook_created',
      'webhook_updated',
      'webhook_deleted',
      'webhook_secret_rotated',
      'webhook_tested',
      'webhook_redelivered',
      'node_drained',
      'node_undrained',
      'job_queued',
      'job_started',
      'job_done',
      'job_failed',
      'job_cancel_requested',
      'job_cancelled',
      'steam_account_set',
      'steam_account_removed',
      'workshop_item_removed',
    ] as const
  ).map((t) => Type.Literal(t)),
);
export type AuditEventType = Static<typeof AuditEventType>;

export const AuditEvent = Type.Object(
  {
    id: Type.Integer(),
    server_id: Type.Integer(),
    event_type: AuditEventType,
    /** The name of who acted (a username, a key's or a schedule's name), or null for the service acting by itself. */
    actor: Nullable(Type.String()),
    actor_kind: ActorKindSchema,
    detail: Type.Record(Type.String(), Type.Unknown()),
    timestamp: Timestamp,
  },
  { $id: 'AuditEvent' },
);
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditQuery = Type.Object({
  ...pageQuery(50),
  event_type: Type.Optional(AuditEventType),
});

export const AuditPage = Type.Object({ total: Type.Integer(), events: Type.Array(AuditEvent) }, { $id: 'AuditPage' });

/** `data` of a `server_status` event. */
export const ServerStatusEventData = Type.Object({ status: ServerStatus, pid: Nullable(Type.Integer()), started_at: Nullable(Timestamp) });
export type ServerStatusEventData = Static<typeof ServerStatusEventData>;
