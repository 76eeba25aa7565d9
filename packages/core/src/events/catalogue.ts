import { Type, type Static, type TSchema } from '../typebox.js';
import { LogLevelSchema, MetricsEventData } from '../schemas/live.js';
import { Player } from '../schemas/players.js';
import { AuditEvent, ServerStatusEventData } from '../schemas/lifecycle.js';
import { ProcessStatusEventData } from '../schemas/processes.js';
import { ScheduleRunEventData } from '../schemas/schedules.js';
import { BackupEventData } from '../schemas/backups.js';
import { WebhookDelivery } from '../schemas/webhooks.js';
import { JobProgressEventData } from '../schemas/jobs.js';

/** The WebSocket channels events travel on. */
export const EVENT_CHANNELS = ['status', 'log', 'players', 'metrics', 'event'] as const;
export type EventChannel = (typeof EVENT_CHANNELS)[number];
/** What `/ws` sends unless told otherwise: every channel but `event` (the audit trail's entries). */
export const DEFAULT_EVENT_CHANNELS = ['status', 'log', 'players', 'metrics'] as const satisfies readonly EventChannel[];

interface CatalogueEntry {
  data: TSchema;
  /** The appendix WebSocket's channel (`/ws/{id}`) the event travels on. */
  channel: EventChannel;
  description: string;
  /**
   * Sent only to admins signed in with a session (never through an API key: no key may manage webhooks),
   * and only on `/ws` (the appendix's `/ws/{id}` names messages by channel).
   */
  adminsOnly?: true;
}

/**
 * Every event the service emits about a server (and `webhook_delivery`, about the service's webhooks): its type, the schema of its
 * `data`, and what it means.
 * The event bus, the WebSocket, the audit trail, the SDK's types and the docs all take their events from
 * here; a new event is declared here first.
 */
export const EventCatalogue = {
  server_status: {
    data: ServerStatusEventData,
    channel: 'status',
    description: "The server's status changed (`pid` and `started_at` are null without a process).",
  },
  process_status: {
    data: ProcessStatusEventData,
    channel: 'status',
    description: 'A headless client of the server started, stopped, crashed, was restarted, or gave up.',
  },
  server_mission: {
    data: Type.Object({ mission: Type.String() }),
    channel: 'status',
    description: "The game said in its log that it now plays this mission (the server's `mission`).",
  },
  log: {
    data: Type.Object({ timestamp: Type.String({ format: 'date-time' }), level: LogLevelSchema, message: Type.String() }),
    channel: 'log',
    description: "A line of the game log (the game's own time where the line carries a full date).",
  },
  players: {
    data: Type.Object({ players: Type.Array(Player), count: Type.Integer() }),
    channel: 'players',
    description: 'The player list changed.',
  },
  metrics: {
    data: MetricsEventData,
    channel: 'metrics',
    description: "CPU, memory and players, sampled periodically while the server runs (with its headless clients' CPU and memory).",
  },
  schedule_run: {
    data: ScheduleRunEventData,
    channel: 'event',
    description: "A run of one of the server's schedules started, finished a step, finished, or was skipped (with the reason).",
  },
  backup: {
    data: BackupEventData,
    channel: 'event',
    description: 'A backup of the server is being written (its bytes so far), is done, or failed.',
  },
  job_progress: {
    data: JobProgressEventData,
    channel: 'status',
    description: 'A background job moved on or ended (`server_id` 0: of no server).',
  },
  audit: {
    data: AuditEvent,
    channel: 'event',
    description: 'An entry of the audit trail was recorded (sent as `event` over the WebSocket).',
  },
  webhook_delivery: {
    data: WebhookDelivery,
    channel: 'event',
    adminsOnly: true,
    description:
      'Admins only: a webhook delivery queued or attempted, as its log lists it (no URL or secret); `server_id` 0: of no server.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type EventType = keyof typeof EventCatalogue;
export type EventData<T extends EventType> = Static<(typeof EventCatalogue)[T]['data']>;
export const EVENT_TYPES = Object.keys(EventCatalogue) as EventType[];

/** What a producer publishes: the event without its envelope. */
export type EventInput = { [K in EventType]: { type: K; server_id: number; data: EventData<K> } }[EventType];

/** An event as it travels inside the service (and between instances): with its id, time and origin. */
export type GarrisonEvent = {
  [K in EventType]: { id: string; type: K; server_id: number; time: string; origin: string; data: EventData<K> };
}[EventType];

/** The envelope as a schema, for the docs. */
export const EventEnvelope = Type.Object(
  {
    id: Type.String({ description: 'Unique per event, stable wherever the event is delivered.' }),
    type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t))),
    server_id: Type.Integer(),
    time: Type.String({ format: 'date-time', description: 'When the event happened, by the clock of the instance it came from.' }),
    origin: Type.String({ description: 'The id of the instance that emitted it.' }),
    data: Type.Unknown({ description: 'As the catalogue gives for the type.' }),
  },
  { $id: 'EventEnvelope' },
);

/** The name an event has on the contract's WebSocket `/ws`: its type, except the audit trail's `event`. */
export type WireType<K extends EventType> = K extends 'audit' ? 'event' : K;
export const wireType = <K extends EventType>(type: K): WireType<K> => (type === 'audit' ? 'event' : type) as WireType<K>;
