import type { Static } from '../typebox.js';
import { EventCatalogue, EventEnvelope, wireType, type EventType, type GarrisonEvent, type WireType } from '../events/catalogue.js';

type Catalogue = typeof EventCatalogue;

/** `data` of each live event the WebSocket `/ws` sends, by the message's `type` (from the event catalogue). */
export const LiveEventData = Object.fromEntries(
  (Object.keys(EventCatalogue) as EventType[]).map((t) => [wireType(t), EventCatalogue[t].data]),
) as {
  [K in EventType as WireType<K>]: Catalogue[K]['data'];
};

export type LiveEventType = keyof typeof LiveEventData;

/** The catalogue's envelope as every live message carries it beside `{type, server_id, data}`. */
export type LiveEnvelope = Pick<Static<typeof EventEnvelope>, 'id' | 'time' | 'origin'>;

/** One live event as it arrives over `/ws`: the contract's `{type, server_id, data}` and the envelope's id, time and origin. */
export type LiveEvent = {
  [K in LiveEventType]: { type: K; server_id: number; data: Static<(typeof LiveEventData)[K]> } & LiveEnvelope;
}[LiveEventType];

/**
 * An event as `/ws` sends it: the contract's fields first (a client that reads only those reads what it
 * always did), then the envelope, the same id, time and origin on every instance that delivers it.
 */
export function liveMessage(event: GarrisonEvent): LiveEvent {
  const { id, time, origin } = event;
  return { type: wireType(event.type), server_id: event.server_id, data: event.data, id, time, origin } as LiveEvent;
}
