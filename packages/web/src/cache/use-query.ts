import { useEffect, useReducer } from 'preact/hooks';
import { change, entryOf, refresh, wanted } from './store.js';

/** How old a read may be before it is made again even though no live event said it changed. */
const DEFAULT_MAX_AGE_MS = 5 * 60_000;

export interface Query<T> {
  data: T | undefined;
  error: unknown;
  /** Reads it again (a person asked, or a change was just made). */
  reload: () => void;
  /** Changes what is cached, for every component showing it. */
  apply: (update: (value: T) => T) => void;
}

/**
 * The read `key` from the shared cache: cached data at once, a read only when there is none, it is out of
 * date or older than `maxAgeMs`. The key names the resource and everything the read depends on
 * (`bans:3:active=true:0`), so that `load` never needs to be compared.
 */
export function useQuery<T>(key: string, load: () => Promise<T>, maxAgeMs = DEFAULT_MAX_AGE_MS): Query<T> {
  const entry = entryOf(key, load);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const listener = () => rerender(0);
    entry.listeners.add(listener);
    // What a live event said changed is read as a person's read: the person opening it waits for it.
    if (wanted(entry, maxAgeMs)) void refresh(entry, entry.value !== undefined && !entry.stale);
    return () => void entry.listeners.delete(listener);
  }, [key]);
  return {
    data: entry.value,
    error: entry.error,
    reload: () => void refresh(entry, false),
    apply: (update) => change(key, update),
  };
}
