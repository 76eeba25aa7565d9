import type { Static } from '../typebox.js';
import { EventCatalogue, wireType, type EventType, type WireType } from '../events/catalogue.js';

type Catalogue = typeof EventCatalogue;

/** `data` of each live event the WebSocket `/ws` sends, by the message's `type` (from the event catalogue). */
export const LiveEventData = Object.fromEntries((Object.keys(EventCatalogue) as EventType[]).map((t) => [wireType(t), EventCatalogue[t].data])) as {
  [K in EventType as WireType<K>]: Catalogue[K]['data'];
};

export type LiveEventType = keyof typeof LiveEventData;

/** One live event as it arrives over `/ws`. */
export type LiveEvent = { [K in LiveEventType]: { type: K; server_id: number; data: Static<(typeof LiveEventData)[K]> } }[LiveEventType];
