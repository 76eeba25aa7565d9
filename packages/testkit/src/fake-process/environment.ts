/**
 * What every fake game process reads from its environment the same way: counts and times as
 * non-negative integers, and the test runner it belongs to.
 */

/** A non-negative integer setting, or `fallback` when unset; anything else is refused with `refuse`'s error. */
export function envCount(name: string, fallback: number, refuse: (message: string) => Error): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw refuse(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Calls `onGone` once process `pid` has ended (0: never). A test runner names its own pid, so that a fake
 * a crashed or killed test left behind (or that a service started in a process group of its own) cannot
 * keep running, and holding its ports, after the run.
 */
export function watchOwner(pid: number, onGone: () => void): void {
  if (!pid) return;
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPERM') return; // alive, someone else's
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}
