import { useEffect, useState } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { Problem } from './problem.js';

/** A component loaded when first shown, so that a heavy one (the charts) stays out of the first download. */
export function lazy<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  return function Lazy(props: P) {
    const [Component, setComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (!Component) load().then((c) => setComponent(() => (loaded = c)), setError);
    }, []);
    if (error) return <Problem error={error} />;
    return Component ? <Component {...props} /> : <p>Loading…</p>;
  };
}
