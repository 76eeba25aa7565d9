import { GarrisonApiError } from '@garrison/sdk';
import { permit } from './rate-budget.js';

/**
 * The console's reads, shared by every page and tab: one entry per key (`bans:3:…`), read once however
 * many components ask, kept while the page lives, shown at once when a tab is opened again, read again
 * only when a live event says that resource changed (see invalidation.ts) or when it is older than its
 * `maxAgeMs`.
 */
interface Entry<T> {
  value: T | undefined;
  error: unknown;
  fetchedAt: number;
  stale: boolean;
  inflight: Promise<void> | null;
  load: () => Promise<T>;
  listeners: Set<() => void>;
  /** Changes that arrived while a read was under way: applied to what it returns too, since it may predate them. */
  arrivedDuringRead: ((value: T) => T)[] | null;
  /** Asked for again while a read was under way: that read may predate the change, so one more follows. */
  again: boolean;
  retryTimer: ReturnType<typeof setTimeout> | undefined;
}

const entries = new Map<string, Entry<unknown>>();
/** Told of every failed read (the session ends on a refused token); set by session.ts. */
let onReadFailure: (err: unknown) => void = () => {};
export const whenReadFails = (handler: (err: unknown) => void) => void (onReadFailure = handler);

export function entryOf<T>(key: string, load: () => Promise<T>): Entry<T> {
  let entry = entries.get(key) as Entry<T> | undefined;
  if (!entry) {
    entry = {
      value: undefined,
      error: null,
      fetchedAt: 0,
      stale: true,
      inflight: null,
      load,
      listeners: new Set(),
      arrivedDuringRead: null,
      again: false,
      retryTimer: undefined,
    };
    entries.set(key, entry as Entry<unknown>);
  }
  entry.load = load;
  return entry;
}

const notify = (entry: Entry<unknown>) => entry.listeners.forEach((listener) => listener());

/** Reads the entry again unless a read is under way; a person's read goes before background refreshes. */
export function refresh<T>(entry: Entry<T>, background: boolean): Promise<void> {
  if (entry.inflight) {
    entry.again = true;
    return entry.inflight.then(() => entry.inflight ?? undefined);
  }
  clearTimeout(entry.retryTimer);
  const arrived: ((value: T) => T)[] = [];
  entry.arrivedDuringRead = arrived;
  entry.inflight = (async () => {
    try {
      // A page that opens after the budget ran out (a page loaded on demand) says so while it waits.
      await permit(background ? 'background' : 'person', (seconds) => {
        if (entry.value !== undefined) return;
        entry.error = new GarrisonApiError(429, 'RATE_LIMITED', 'too many requests', {}, seconds);
        notify(entry as Entry<unknown>);
      });
      const value = await entry.load();
      entry.value = arrived.reduce<T>((v, change) => change(v), value);
      entry.fetchedAt = Date.now();
      entry.stale = false;
      entry.error = null;
    } catch (err) {
      entry.error = err;
      onReadFailure(err);
      // Only reached when another tab of the browser spent the budget: tried again after its wait.
      if (err instanceof GarrisonApiError && err.status === 429) {
        entry.retryTimer = setTimeout(() => entry.listeners.size && void refresh(entry, true), (err.retryAfterSeconds ?? 5) * 1000);
      }
    } finally {
      entry.inflight = null;
      entry.arrivedDuringRead = null;
      notify(entry as Entry<unknown>);
    }
    if (entry.again) {
      entry.again = false;
      await refresh(entry, true);
    }
  })();
  return entry.inflight;
}

/** Whether the entry should be read (again) now that a component shows it. */
export const wanted = <T>(entry: Entry<T>, maxAgeMs: number, now = Date.now()) =>
  !entry.inflight && (entry.value === undefined || entry.stale || now - entry.fetchedAt > maxAgeMs);

/** A change to what is cached (from a live event or an answer), applied to a read under way as well. */
export function change<T>(key: string, update: (value: T) => T): void {
  const entry = entries.get(key) as Entry<T> | undefined;
  if (!entry) return;
  entry.arrivedDuringRead?.push(update);
  if (entry.value !== undefined) entry.value = update(entry.value);
  notify(entry as Entry<unknown>);
}

/**
 * Marks the entries whose key starts with one of `prefixes` (and that were read before `readBefore`) out
 * of date: read again when next shown. Those shown right now are read again at once, unless
 * `observedApplyLive` says the components showing them apply the change themselves.
 */
export function invalidate(prefixes: string[], observedApplyLive = false, readBefore = Infinity): void {
  for (const [key, entry] of entries) {
    if (!prefixes.some((p) => key.startsWith(p)) || entry.fetchedAt >= readBefore) continue;
    entry.stale = true;
    if (entry.listeners.size && !observedApplyLive) void refresh(entry, true);
  }
}

/** At sign-out: the next user must not see what this one read. */
export function clearCache(): void {
  for (const entry of entries.values()) clearTimeout(entry.retryTimer);
  entries.clear();
}
