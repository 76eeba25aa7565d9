import { randomUUID } from 'node:crypto';
import type { EventInput, GarrisonEvent } from '@garrison/core';
import type { Clock } from '../jobs/clock.js';

export type EventHandler = (event: GarrisonEvent) => void;

/**
 * One publish/subscribe path for everything that happens to a server, with the event types of core's
 * catalogue. A published event gets its envelope here (an id, the time, the instance it comes from); the
 * WebSocket hub, the audit trail and later consumers (notifications, other instances) read from it, and
 * producers never know who listens.
 */
export interface EventBus {
  publish(event: EventInput): GarrisonEvent;
  /** `serverIds` null: every server. Returns the unsubscribe function. */
  subscribe(handler: EventHandler, serverIds?: readonly number[] | null): () => void;
}

/** The in-process bus: synchronous delivery, a failing subscriber never stops the others. */
export class InProcessEventBus implements EventBus {
  private readonly subscribers = new Set<{ handler: EventHandler; serverIds: ReadonlySet<number> | null }>();

  constructor(
    private readonly origin: string,
    private readonly clock: Clock,
    private readonly onHandlerError: (err: unknown, event: GarrisonEvent) => void = () => {},
  ) {}

  publish(input: EventInput): GarrisonEvent {
    const event = { id: randomUUID(), time: new Date(this.clock.now()).toISOString(), origin: this.origin, ...input } as GarrisonEvent;
    for (const { handler, serverIds } of this.subscribers) {
      if (serverIds && !serverIds.has(event.server_id)) continue;
      try {
        handler(event);
      } catch (err) {
        this.onHandlerError(err, event);
      }
    }
    return event;
  }

  subscribe(handler: EventHandler, serverIds: readonly number[] | null = null): () => void {
    const entry = { handler, serverIds: serverIds ? new Set(serverIds) : null };
    this.subscribers.add(entry);
    return () => this.subscribers.delete(entry);
  }
}
