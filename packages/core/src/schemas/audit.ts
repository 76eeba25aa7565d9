import { Type, type Static } from '../typebox.js';
import { Nullable, pageQuery } from './common.js';
import { ActorKindSchema } from './actor.js';
import { AuditEvent, AuditEventType } from './lifecycle.js';
import { QueryTimestamp } from './live.js';

/** What an entry of the trail is about: a server, a user, a key, a webhook, a node… kept as text, so that it outlives what it names. */
export const AUDIT_TARGET_KINDS = [
  'server',
  'user',
  'api_key',
  'session',
  'webhook',
  'node',
  'backup',
  'schedule',
  'job',
  'steam_account',
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];
export const AuditTargetKindSchema = Type.Union(AUDIT_TARGET_KINDS.map((k) => Type.Literal(k)));

/** The fields an entry shares with the per-server trail's published shape (`AuditEvent`), declared there. */
const entryOfServer = AuditEvent.properties;

/**
 * One entry of the service's audit trail (`GET /audit`): who did what to what, and when. `hash` is the
 * SHA-256 of the entry's canonical form and `prev_hash`, the entry before it: `garrison audit verify`
 * recomputes the chain.
 */
export const AuditEntry = Type.Object(
  {
    id: entryOfServer.id,
    /** The server the entry is about or happened on; null for the service's own resources (users, keys, webhooks, nodes). */
    server_id: Nullable(Type.Integer()),
    event_type: entryOfServer.event_type,
    actor: entryOfServer.actor,
    actor_kind: entryOfServer.actor_kind,
    actor_id: Nullable(Type.String()),
    target_kind: AuditTargetKindSchema,
    target_id: Nullable(Type.String()),
    /** The target's name when the entry was written (a server deleted since keeps it here). */
    target_name: Nullable(Type.String()),
    detail: entryOfServer.detail,
    timestamp: entryOfServer.timestamp,
    prev_hash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    hash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { $id: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditListQuery = Type.Object({
  ...pageQuery(50),
  /** The actor's name (a username, a key's or a schedule's name). */
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  actor_kind: Type.Optional(ActorKindSchema),
  server_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  target_kind: Type.Optional(AuditTargetKindSchema),
  event_type: Type.Optional(AuditEventType),
  /** Entries at or after this time. */
  since: Type.Optional(QueryTimestamp),
  /** Entries before this time. */
  until: Type.Optional(QueryTimestamp),
  /**
   * `jsonl`: every matching entry (oldest first, no paging), one JSON object a line, streamed.
   * `Accept: application/x-ndjson` does the same.
   */
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('jsonl')])),
});
export type AuditListQuery = Static<typeof AuditListQuery>;

export const AuditEntryPage = Type.Object({ total: Type.Integer(), entries: Type.Array(AuditEntry) }, { $id: 'AuditEntryPage' });
export type AuditEntryPage = Static<typeof AuditEntryPage>;
