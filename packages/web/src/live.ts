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
let subscribedIds: number[] | null = null;
let subscribedWithLog = true;
/** Whether the current subscription has been accepted by the service (its `connected` came). */
let subscriptionAccepted = false;
/** Closes the subscription being replaced, once its replacement is accepted. */
let retirePrevious: (() => void) | null = null;
let retireCurrent: () => void = () => {};
let settleTimer: ReturnType<typeof setTimeout> | undefined;

function dispatch<K extends keyof EventHandlers>(
  name: K,
  arg: Parameters<NonNullable<EventHandlers[K]>>[0],
  serverId: number | null = null,
) {
  for (const listener of listeners) {
    if (serverId !== null && listener.serverId !== null && listener.serverId !== serverId) continue;
    (listener.handlers.current[name] as ((a: typeof arg) => void) | undefined)?.(arg);
  }
}

/** Whether a listener shows game log lines: otherwise none are sent to this page (nor, in a cluster, to its instance). */
const wantsLog = () => [...listeners].some((l) => l.handlers.current.log !== undefined);

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
  // A server's own page takes its log whichever tab is shown (no new socket at each tab); the pages of
  // every server, only when one of them shows log lines.
  const withLog = ids !== null || wantsLog();
  const key = `${ids ? ids.join(',') : 'all'}${withLog ? '' : ' without log'}`;
  if (subscription && key === subscribedTo) return;
  // The socket being replaced stays open, and keeps delivering, until the new one is accepted: a change
  // between the two is then not missed, and what the old one covered need not be read again.
  const previous = subscription
    ? { subscription, ids: subscribedIds, withLog: subscribedWithLog, accepted: subscriptionAccepted, retire: retireCurrent }
    : null;
  subscribedTo = key;
  subscribedIds = ids;
  subscribedWithLog = withLog;
  subscriptionAccepted = false;
  let retired = false;
  let accepted = false;
  const connectingSince = Date.now();
  const handlers: EventHandlers = {
    connected: (subscriptions) => {
      if (!accepted && previous) {
        retirePrevious?.();
        const servers = previous.ids === null || (ids !== null && ids.every((id) => previous.ids!.includes(id)));
        const covered = previous.accepted && servers && (previous.withLog || !withLog);
        if (!covered) invalidateMissed(ids, connectingSince);
      } else {
        // A reconnection: what was read before it may have missed events.
        invalidateMissed(ids, accepted ? Date.now() : connectingSince);
      }
      accepted = true;
      if (subscription === current) subscriptionAccepted = true;
      dispatch('connected', subscriptions);
    },
    closed: (error) => {
      if (subscription === current) subscription = null;
      if (error) endIfUnauthorized(error);
    },
  };
  for (const type of Object.keys(LiveEventData) as (keyof typeof LiveEventData)[]) {
    (handlers as Record<string, (event: { server_id: number; data: unknown }) => void>)[type] = (event) => {
      if (retired) return;
      dispatch(type, event as never, event.server_id);
      invalidateFor(type, event.server_id, event.data);
    };
  }
  const current = client.events.subscribe(
    { ...(ids ? { serverIds: ids } : {}), auditEntries: true, ...(withLog ? {} : { channels: ['status', 'players', 'metrics'] as const }) },
    handlers,
  );
  if (previous) {
    retirePrevious?.(); // a replacement that never got accepted: nothing waits for it
    retirePrevious = () => {
      retirePrevious = null;
      previous.retire();
      previous.subscription.close();
    };
  }
  retireCurrent = () => (retired = true);
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
  retirePrevious?.();
  retireCurrent();
  subscription?.close();
  subscription = null;
  subscribedTo = null;
  subscribedIds = null;
  subscriptionAccepted = false;
}
