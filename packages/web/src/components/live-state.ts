import { useQuery } from '../cache/use-query.js';

/**
 * State read through the shared cache (`key`, see cache/use-query.ts) and then kept up to date by live
 * events through `apply`. A change that arrives while a read is under way is applied to what the read
 * returns as well, since the read may predate it; so changes must be safe to apply twice (set a field,
 * add an entry unless it is there).
 */
export function useLiveState<T>(key: string, load: () => Promise<T>, maxAgeMs?: number) {
  const { data, error, reload, apply } = useQuery(key, load, maxAgeMs);
  return { state: data ?? null, apply, loaded: data !== undefined, error, reload };
}
