import { useEffect, useRef, useState } from 'preact/hooks';
import { useRetryingLoad } from './problem.js';

/**
 * State read from the service and then kept up to date by live events. A change that arrives while a
 * read is under way is applied to what the read returns as well, since the read may predate it; so
 * changes must be safe to apply twice (set a field, add an entry unless it is there).
 */
export function useLiveState<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<T | null>(null);
  const reading = useRef(new Set<((value: T) => T)[]>());
  const { data, error, reload } = useRetryingLoad(async () => {
    const arrived: ((value: T) => T)[] = [];
    reading.current.add(arrived);
    try {
      const value = await load();
      return arrived.reduce<T>((v, change) => change(v), value as T);
    } finally {
      reading.current.delete(arrived);
    }
  }, deps);
  useEffect(() => {
    if (data !== undefined) setState(data);
  }, [data]);
  const apply = (change: (value: T) => T) => {
    for (const arrived of reading.current) arrived.push(change);
    setState((value: T | null) => (value === null ? value : change(value)));
  };
  return { state, apply, loaded: data !== undefined, error, reload };
}
