import type { AuditEvent, LogLevel, ServerStatusEventData } from '@garrison/core';

/** What travels on the event path: the WebSocket's event types, plus the audit trail's entries. */
export type ServerEvent =
  | { type: 'server_status'; server_id: number; data: ServerStatusEventData }
  | { type: 'log'; server_id: number; data: { timestamp: string; level: LogLevel; message: string } }
  | { type: 'players'; server_id: number; data: { players: { slot_id: string; name: string; ping: number }[]; count: number } }
  | { type: 'metrics'; server_id: number; data: { cpu_percent: number; ram_mb: number; player_count: number | null; timestamp: string } }
  | { type: 'audit'; server_id: number; data: AuditEvent };

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
