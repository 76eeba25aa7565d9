import { useEffect, useState } from 'preact/hooks';

/** `value` once it has stayed the same for `ms`: a search box asks when the typing stops, not at each key. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
