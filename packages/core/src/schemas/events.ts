import { Type, type Static } from '../typebox.js';
import { LogLevelSchema, MetricsPoint } from './live.js';
import { Player } from './players.js';
import { AuditEvent, ServerStatusEventData } from './lifecycle.js';

/** `data` of each live event the WebSocket `/ws` sends, by the message's `type`. */
export const LiveEventData = {
  server_status: ServerStatusEventData,
  log: Type.Object({ timestamp: Type.String({ format: 'date-time' }), level: LogLevelSchema, message: Type.String() }),
  players: Type.Object({ players: Type.Array(Player), count: Type.Integer() }),
  metrics: MetricsPoint,
  /** An entry of the audit trail, as it is recorded. */
  event: AuditEvent,
};

export type LiveEventType = keyof typeof LiveEventData;

/** One live event as it arrives over `/ws`. */
export type LiveEvent = { [K in LiveEventType]: { type: K; server_id: number; data: Static<(typeof LiveEventData)[K]> } }[LiveEventType];
