import { Type, type Static, type TSchema } from '../typebox.js';
import { Id, Nullable, pageQuery, Timestamp } from './common.js';

type Severity = 'info' | 'good' | 'warning' | 'bad';

const server = { server_id: Type.Integer(), server_name: Type.String() };
const player = { player_name: Type.String(), guid: Nullable(Type.String()) };

/**
 * What a webhook can be told: the type, the schema of its `data`, how bad it is (Discord's colour), and
 * what it means. The outbox, the payloads, the docs and the console's event picker take their types from
 * here.
 */
export const WebhookEventCatalogue = {
  'server.started': {
    severity: 'good',
    description: 'The game is up (passed its readiness check).',
    data: Type.Object({ ...server, pid: Nullable(Type.Integer()) }),
  },
  'server.stopped': {
    severity: 'info',
    description: 'Someone stopped or killed the server.',
    data: Type.Object({ ...server, by: Nullable(Type.String()), forced: Type.Boolean() }),
  },
  'server.crashed': {
    severity: 'bad',
    description: 'The game exited without being asked to.',
    data: Type.Object({ ...server, exit_code: Nullable(Type.Integer()), signal: Nullable(Type.String()), restart_count: Type.Integer() }),
  },
  'server.restarted': {
    severity: 'info',
    description: 'The server was restarted: after a crash, by a schedule, or by someone.',
    data: Type.Object({
      ...server,
      reason: Type.Union([Type.Literal('crash'), Type.Literal('schedule'), Type.Literal('manual')]),
      by: Nullable(Type.String()),
    }),
  },
  'server.crash_loop': {
    severity: 'bad',
    description: 'The server crashed with no automatic restarts left: it stays down until someone starts it.',
    data: Type.Object({ ...server, restart_count: Type.Integer(), max_restarts: Type.Integer() }),
  },
  'player.joined': { severity: 'info', description: 'A player joined.', data: Type.Object({ ...server, ...player }) },
  'player.left': { severity: 'info', description: 'A player left.', data: Type.Object({ ...server, ...player }) },
  'player.kicked': {
    severity: 'warning',
    description: 'An admin kicked a player.',
    data: Type.Object({ ...server, player_name: Type.String(), reason: Nullable(Type.String()), by: Nullable(Type.String()) }),
  },
  'player.banned': {
    severity: 'warning',
    description: 'A ban was added.',
    data: Type.Object({
      ...server,
      guid: Nullable(Type.String()),
      duration_minutes: Nullable(Type.Integer()),
      reason: Nullable(Type.String()),
      by: Nullable(Type.String()),
    }),
  },
  'config.changed': {
    severity: 'info',
    description: "A section of the server's config was changed.",
    data: Type.Object({ ...server, section: Type.String(), fields: Type.Array(Type.String()), by: Nullable(Type.String()) }),
  },
  'schedule.failed': {
    severity: 'bad',
    description: 'A run of a schedule failed.',
    data: Type.Object({ ...server, schedule_id: Type.Integer(), run_id: Nullable(Type.Integer()), reason: Nullable(Type.String()) }),
  },
  'schedule.skipped': {
    severity: 'warning',
    description: 'A run of a schedule was skipped (its condition, or a run still under way).',
    data: Type.Object({ ...server, schedule_id: Type.Integer(), run_id: Nullable(Type.Integer()), reason: Nullable(Type.String()) }),
  },
  'backup.completed': {
    severity: 'good',
    description: 'A backup was written.',
    data: Type.Object({ ...server, backup_id: Type.Integer(), bytes: Type.Integer() }),
  },
  'backup.failed': {
    severity: 'bad',
    description: 'A backup failed.',
    data: Type.Object({ ...server, backup_id: Type.Integer(), reason: Nullable(Type.String()) }),
  },
  'job.failed': {
    severity: 'bad',
    description: 'A background job failed.',
    data: Type.Object({
      server_id: Nullable(Type.Integer()),
      server_name: Nullable(Type.String()),
      job_id: Type.Integer(),
      kind: Type.String(),
      code: Type.String(),
      message: Type.String(),
    }),
  },
  'workshop.updated': {
    severity: 'info',
    description: 'Workshop items were updated on Steam (stage outdated), or their new versions installed (stage installed).',
    data: Type.Object({
      ...server,
      stage: Type.Union([Type.Literal('outdated'), Type.Literal('installed')]),
      items: Type.Array(Type.Object({ workshop_id: Type.String(), name: Type.String() })),
    }),
  },
  'rcon.lost': {
    severity: 'warning',
    description: 'Remote admin stopped answering while the server runs.',
    data: Type.Object({ ...server, error: Nullable(Type.String()) }),
  },
  'rcon.restored': { severity: 'good', description: 'Remote admin answers again.', data: Type.Object(server) },
  'node.offline': {
    severity: 'bad',
    description: 'A node (Garrison instance) of the cluster stopped sending heartbeats; its servers show unknown.',
    data: Type.Object({ node_id: Type.String() }),
  },
  'node.online': { severity: 'good', description: 'A node of the cluster is back.', data: Type.Object({ node_id: Type.String() }) },
  'auth.second_step_paused': {
    severity: 'bad',
    description: "Wrong two-factor codes in a row for an account: its sign-ins' second steps pause (someone may know its password).",
    data: Type.Object({ user_id: Type.Integer(), username: Type.String(), failures: Type.Integer(), paused_until: Timestamp }),
  },
  'webhook.test': {
    severity: 'info',
    description: 'Sent by the test button (POST /webhooks/{id}/test).',
    data: Type.Object({ webhook_id: Type.Integer(), message: Type.String() }),
  },
} as const satisfies Record<string, { severity: Severity; description: string; data: TSchema }>;

export type WebhookEventType = keyof typeof WebhookEventCatalogue;
export const WEBHOOK_EVENT_TYPES = Object.keys(WebhookEventCatalogue) as WebhookEventType[];
export type WebhookEventData<T extends WebhookEventType> = Static<(typeof WebhookEventCatalogue)[T]['data']>;
/** What a delivery's body is: `{type, timestamp, data}` (Standard Webhooks' recommended shape). */
export type WebhookPayload = { [K in WebhookEventType]: { type: K; timestamp: string; data: WebhookEventData<K> } }[WebhookEventType];

export const WebhookEventTypeSchema = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));
export const WebhookKind = Type.Union([Type.Literal('generic'), Type.Literal('discord')], {
  description: '`generic`: Standard Webhooks (signed JSON); `discord`: a Discord channel webhook (embeds).',
});

const Url = Type.String({
  minLength: 8,
  maxLength: 2000,
  pattern: '^https?://',
  description: 'http(s) URL; refused when it resolves to a loopback, link-local or private address.',
});
const Events = Type.Array(WebhookEventTypeSchema, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });
const ServerIds = Nullable(
  Type.Array(Id, { maxItems: 1000, uniqueItems: true, description: "Only these servers' events; null or absent: every server." }),
);

export const CreateWebhookRequest = Type.Object(
  {
    url: Url,
    kind: WebhookKind,
    events: Events,
    server_ids: Type.Optional(ServerIds),
    enabled: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false },
);
export type CreateWebhookRequest = Static<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), server_ids: Type.Optional(ServerIds), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookRequest = Static<typeof UpdateWebhookRequest>;

export const Webhook = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'Masked: the scheme and host only (the path of a Discord webhook is its credential).' }),
    kind: WebhookKind,
    events: Type.Array(WebhookEventTypeSchema),
    server_ids: Nullable(Type.Array(Type.Integer())),
    enabled: Type.Boolean(),
    disabled_reason: Nullable(Type.String({ description: 'Why Garrison turned it off (the receiver answered 410 Gone).' })),
    previous_secret_expires_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

export const CreatedWebhook = Type.Intersect(
  [Webhook, Type.Object({ secret: Type.String({ description: 'Shown once: `whsec_…`, the key of the signatures.' }) })],
  { $id: 'CreatedWebhook' },
);
export const RotatedSecret = Type.Object(
  { secret: Type.String({ description: 'The new key, shown once.' }), previous_secret_expires_at: Timestamp },
  { $id: 'RotatedSecret', description: 'Deliveries are signed with both keys until the previous one expires (24 h).' },
);

export const WebhookDeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);
export const WebhookDelivery = Type.Object(
  {
    id: Type.Integer(),
    webhook_id: Type.Integer(),
    event_id: Type.String({ description: 'The `webhook-id` header: the same on every attempt and on a redelivery.' }),
    event_type: WebhookEventTypeSchema,
    server_id: Nullable(Type.Integer()),
    attempt: Type.Integer({ description: 'Attempts made so far.' }),
    status: WebhookDeliveryStatus,
    response_status: Nullable(Type.Integer()),
    response_snippet: Nullable(Type.String({ description: 'The start of the answer (at most 500 characters).' })),
    error: Nullable(Type.String()),
    next_attempt_at: Nullable(Timestamp),
    delivered_at: Nullable(Timestamp),
    duration_ms: Nullable(Type.Integer()),
    created_at: Timestamp,
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryPage = Type.Object(
  { total: Type.Integer(), items: Type.Array(WebhookDelivery) },
  { $id: 'WebhookDeliveryPage' },
);
export const WebhookDeliveryQuery = Type.Object({ ...pageQuery(50), status: Type.Optional(WebhookDeliveryStatus) });

export const WebhookIdParams = Type.Object({ webhook_id: Id });
export const WebhookDeliveryParams = Type.Object({ webhook_id: Id, delivery_id: Id });
