import { useEffect, useRef } from 'preact/hooks';
import { LiveEventData } from '@garrison/core';
import type { EventHandlers, Subscription } from '@garrison/sdk';
import { client, endIfUnauthorized } from './session.js';
import { invalidateFor, invalidateMissed } from './cache/invalidation.js';

/**
 * One WebSocket for the whole page, shared by every component that wants live events. It subscribes to
 * just the servers its listeners follow (the server page: one), or to all of them when one listener wants
 * every server (the dashboard), so that a page is not sent the log lines of servers it does not show.
 */
interface Listener {
  handlers: { current: EventHandlers };
  /** The server followed, or null for every server. */
  serverId: number | null;
}
const listeners = new Set<Listener>();
let subscription: Subscription | null = null;
let subscribedTo: string | null = null;
let settleTimer: ReturnType<typeof setTimeout> | undefined;

function dispatch<K extends keyof EventHandlers>(name: K, arg: Parameters<NonNullable<EventHandlers[K]>>[0], serverId: number | null = null) {
  for (const listener of listeners) {
    if (serverId !== null && listener.serverId !== null && listener.serverId !== serverId) continue;
    (listener.handlers.current[name] as ((a: typeof arg) => void) | undefined)?.(arg);
  }
}

/** The servers the listeners follow: null for all. */
function wanted(): number[] | null {
  const ids = new Set([...listeners].map((l) => l.serverId));
  return ids.has(null) ? null : ([...ids] as number[]).sort((a, b) => a - b);
}

/** Opens, reopens or closes the socket so that it carries what the listeners want. */
function sync(): void {
  clearTimeout(settleTimer);
  if (listeners.size === 0) return closeLive();
  const ids = wanted();
  const key = ids ? ids.join(',') : 'all';
  if (subscription && key === subscribedTo) return;
  subscription?.close();
  subscribedTo = key;
  const connectingSince = Date.now();
  const handlers: EventHandlers = {
    connected: (subscriptions) => {
      invalidateMissed(ids, connectingSince);
      dispatch('connected', subscriptions);
    },
    closed: (error) => {
      if (subscription === current) subscription = null;
      if (error) endIfUnauthorized(error);
    },
  };
  for (const type of Object.keys(LiveEventData) as (keyof typeof LiveEventData)[]) {
    (handlers as Record<string, (event: { server_id: number; data: unknown }) => void>)[type] = (event) => {
      dispatch(type, event as never, event.server_id);
      invalidateFor(type, event.server_id, event.data);
    };
  }
  const current = client.events.subscribe({ ...(ids ? { serverIds: ids } : {}), auditEntries: true }, handlers);
  subscription = current;
}

/**
 * Live events while the component is on the page: only those of server `serverId`, or of every server
 * (null). The handlers may change at each render.
 */
export function useLiveEvents(serverId: number | null, handlers: EventHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const listener = { handlers: ref, serverId };
    listeners.add(listener);
    sync();
    return () => {
      listeners.delete(listener);
      // A page change removes one listener before the next one comes: decide once things have settled.
      clearTimeout(settleTimer);
      settleTimer = setTimeout(sync, 1_000);
    };
  }, [serverId]);
}

/** Ends the shared connection (at sign-out: the next user's listeners open their own). */
export function closeLive(): void {
  clearTimeout(settleTimer);
  subscription?.close();
  subscription = null;
  subscribedTo = null;
}
