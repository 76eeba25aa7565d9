import { useEffect, useRef } from 'preact/hooks';
import { LiveEventData } from '@garrison/core';
import type { EventHandlers, Subscription } from '@garrison/sdk';
import { client, endIfUnauthorized } from './session.js';

/**
 * One WebSocket for the whole page, shared by every component that wants live events: the dashboard, the
 * server page's header and its open tab each listen without opening a connection of their own.
 */
const listeners = new Set<{ current: EventHandlers }>();
let subscription: Subscription | null = null;
let closeTimer: ReturnType<typeof setTimeout> | undefined;

function dispatch<K extends keyof EventHandlers>(name: K, arg: Parameters<NonNullable<EventHandlers[K]>>[0]) {
  for (const listener of listeners) (listener.current[name] as ((a: typeof arg) => void) | undefined)?.(arg);
}

function open(): void {
  clearTimeout(closeTimer);
  if (subscription) return;
  const handlers: EventHandlers = {
    connected: (subscriptions) => dispatch('connected', subscriptions),
    closed: (error) => {
      subscription = null;
      if (error) endIfUnauthorized(error);
    },
  };
  for (const type of Object.keys(LiveEventData) as (keyof typeof LiveEventData)[]) {
    (handlers as Record<string, (event: never) => void>)[type] = (event) => dispatch(type, event);
  }
  subscription = client.events.subscribe({}, handlers);
}

/** Live events while the component is on the page; the handlers may change at each render. */
export function useLiveEvents(handlers: EventHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    listeners.add(ref);
    open();
    return () => {
      listeners.delete(ref);
      // A page change unmounts one listener before the next mounts: keep the socket across it.
      if (listeners.size === 0) closeTimer = setTimeout(() => listeners.size === 0 && closeLive(), 1_000);
    };
  }, []);
}

/** Ends the shared connection (at sign-out: the next user's listeners open their own). */
export function closeLive(): void {
  clearTimeout(closeTimer);
  subscription?.close();
  subscription = null;
}
