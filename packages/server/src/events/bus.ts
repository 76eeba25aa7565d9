import type { LiveEvent, AuditEvent } from '@garrison/core';

/**
 * What travels on the event path: the WebSocket's live events (core's shapes), the audit trail's
 * entries under `audit` (sent as `event` on the wire).
 */
export type ServerEvent = Exclude<LiveEvent, { type: 'event' }> | { type: 'audit'; server_id: number; data: AuditEvent };

export type EventHandler = (event: ServerEvent) => void;

/**
 * One publish/subscribe path for everything that happens to a server. The WebSocket hub, the audit
 * trail and later consumers (notifications, other service instances sharing a database) all read from
 * it; producers never know who listens.
 */
export interface EventBus {
  publish(event: ServerEvent): void;
  /** `serverIds` null: every server. Returns the unsubscribe function. */
  subscribe(handler: EventHandler, serverIds?: readonly number[] | null): () => void;
}

/** The in-process bus: synchronous delivery, a failing subscriber never stops the others. */
export class InProcessEventBus implements EventBus {
  private readonly subscribers = new Set<{ handler: EventHandler; serverIds: ReadonlySet<number> | null }>();

  constructor(private readonly onHandlerError: (err: unknown, event: ServerEvent) => void = () => {}) {}

  publish(event: ServerEvent): void {
    for (const { handler, serverIds } of this.subscribers) {
      if (serverIds && !serverIds.has(event.server_id)) continue;
      try {
        handler(event);
      } catch (err) {
        this.onHandlerError(err, event);
      }
    }
  }

  subscribe(handler: EventHandler, serverIds: readonly number[] | null = null): () => void {
    const entry = { handler, serverIds: serverIds ? new Set(serverIds) : null };
    this.subscribers.add(entry);
    return () => this.subscribers.delete(entry);
  }
}
