import { randomUUID } from 'node:crypto';
import type { EventInput, GarrisonEvent } from '@garrison/core';
import type { Clock } from '../jobs/clock.js';

export type EventHandler = (event: GarrisonEvent) => void;

export interface SubscribeOptions {
  /**
   * Also the events other instances of a cluster emitted (what the WebSocket clients are shown). Left
   * out, a subscriber sees only this instance's own events: the side effects of an event (a record, a
   * file) belong to the instance where it happened, never done again by every peer that hears of it.
   */
  remote?: boolean;
}

/** Which servers' events of a channel someone here wants: none, some, or all. */
export type Interest = { all: true } | { all: false; servers: ReadonlySet<number> };
const NO_INTEREST: Interest = { all: false, servers: new Set() };

/**
 * One publish/subscribe path for everything that happens to a server, with the event types of core's
 * catalogue. A published event gets its envelope here (an id, the time, the instance it comes from); the
 * WebSocket hub, the audit trail and later consumers (notifications, other instances) read from it, and
 * producers never know who listens.
 */
export interface EventBus {
  publish(event: EventInput): GarrisonEvent;
  /** `serverIds` null: every server. Returns the unsubscribe function. */
  subscribe(handler: EventHandler, serverIds?: readonly number[] | null, options?: SubscribeOptions): () => void;
}

interface Subscriber {
  handler: EventHandler;
  serverIds: ReadonlySet<number> | null;
  remote: boolean;
}

/** The in-process bus: synchronous delivery, a failing subscriber never stops the others. */
export class InProcessEventBus implements EventBus {
  private readonly subscribers = new Set<Subscriber>();
  private readonly interests = new Map<string, Interest>();
  private readonly interestListeners = new Set<(channel: string) => void>();

  constructor(
    readonly origin: string,
    private readonly clock: Clock,
    private readonly onHandlerError: (err: unknown, event: GarrisonEvent) => void = () => {},
  ) {}

  publish(input: EventInput): GarrisonEvent {
    const event = { id: randomUUID(), time: new Date(this.clock.now()).toISOString(), origin: this.origin, ...input } as GarrisonEvent;
    this.dispatch(event, false);
    return event;
  }

  /**
   * An event only this instance's clients are shown, never passed to the other instances: what each
   * instance finds out for itself (that a node went offline, say) and tells its own clients.
   */
  showLocally(input: EventInput): void {
    this.dispatch({ id: randomUUID(), time: new Date(this.clock.now()).toISOString(), origin: this.origin, ...input }, true);
  }

  /** An event another instance emitted, for the subscribers that asked for those. */
  deliverRemote(event: GarrisonEvent): void {
    if (event.origin !== this.origin) this.dispatch(event, true);
  }

  subscribe(handler: EventHandler, serverIds: readonly number[] | null = null, options: SubscribeOptions = {}): () => void {
    const entry = { handler, serverIds: serverIds ? new Set(serverIds) : null, remote: options.remote ?? false };
    this.subscribers.add(entry);
    return () => this.subscribers.delete(entry);
  }

  /**
   * What this instance's clients want of a high-volume channel (game log lines): a cluster carries a
   * server's lines to an instance only while someone there follows them.
   */
  setInterest(channel: string, interest: Interest): void {
    this.interests.set(channel, interest);
    for (const listener of this.interestListeners) listener(channel);
  }

  interestIn(channel: string): Interest {
    return this.interests.get(channel) ?? NO_INTEREST;
  }

  onInterest(listener: (channel: string) => void): () => void {
    this.interestListeners.add(listener);
    return () => this.interestListeners.delete(listener);
  }

  private dispatch(event: GarrisonEvent, remote: boolean): void {
    for (const { handler, serverIds, remote: wantsRemote } of this.subscribers) {
      if (remote && !wantsRemote) continue;
      if (serverIds && !serverIds.has(event.server_id)) continue;
      try {
        handler(event);
      } catch (err) {
        this.onHandlerError(err, event);
      }
    }
  }
}
