/**
 * Time, as the service sees it. Everything that waits or asks the time goes through a clock, so that a
 * test can move time on at once (FakeClock) instead of waiting, and nothing in the service keeps a bare
 * timer the stop could forget.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Runs `fn` after `ms`; the timer never keeps the process alive. `label` says what waits (a job's
   * name, `exit of 1234`), so that a test on a fake clock can tell the timer it expects from the others.
   */
  setTimeout(fn: () => void, ms: number, label?: string): Timer;
  /** Resolves after `ms`, or at once (rejecting with an AbortError) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal, label?: string): Promise<void>;
}

export interface Timer {
  cancel(): void;
}

const aborted = () => Object.assign(new Error('the wait was cut short'), { name: 'AbortError' });

function sleepOn(clock: Pick<Clock, 'setTimeout'>, ms: number, signal?: AbortSignal, label?: string): Promise<void> {
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      timer.cancel();
      reject(aborted());
    };
    const timer = clock.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      ms,
      label,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): Timer {
    const handle = setTimeout(fn, Math.max(0, ms));
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  }

  sleep(ms: number, signal?: AbortSignal, label?: string): Promise<void> {
    return sleepOn(this, ms, signal, label);
  }
}

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  label: string | undefined;
}

/**
 * A clock for tests: time stands still until `advance` moves it, running each timer that falls due, in
 * order, and letting the work it starts run before the next one.
 */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly pending = new Set<Pending>();

  constructor(start: number | Date = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number, label?: string): Timer {
    const entry = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, label };
    this.pending.add(entry);
    return { cancel: () => this.pending.delete(entry) };
  }

  sleep(ms: number, signal?: AbortSignal, label?: string): Promise<void> {
    return sleepOn(this, ms, signal, label);
  }

  /** Timers waiting, soonest first: what a test may expect to fire next. */
  get timers(): { inMs: number; label: string | undefined }[] {
    return [...this.pending].sort((a, b) => a.at - b.at || a.seq - b.seq).map((p) => ({ inMs: p.at - this.current, label: p.label }));
  }

  /** Moves time on by `ms`, firing every timer due on the way, each at its own time. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const next = [...this.pending].filter((p) => p.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.pending.delete(next);
      this.current = next.at;
      next.fn();
    }
    this.current = target;
    await settle();
  }
}

/** Lets promise chains and I/O callbacks started by a timer run (a few turns of the event loop). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` settles within `ms` of the clock's time; the wait ends as soon as it does. */
export async function settlesWithin(clock: Clock, promise: Promise<unknown>, ms: number, label?: string): Promise<boolean> {
  const waited = new AbortController();
  const done = await Promise.race([
    Promise.allSettled([promise]).then(() => true as const), // settled, either way
    clock.sleep(ms, waited.signal, label).then(
      () => false as const,
      (err: unknown) => {
        if ((err as Error).name !== 'AbortError') throw err;
        return true as const;
      },
    ),
  ]);
  waited.abort();
  return done;
}

/** The clock's time, ISO 8601: what records are stamped with. */
export const isoNow = (clock: Clock) => new Date(clock.now()).toISOString();

/** A time (milliseconds since the epoch), ISO 8601. */
export const isoAt = (ms: number) => new Date(ms).toISOString();

/** The time `ms` before now, ISO 8601: a retention's cutoff. */
export const isoAgo = (clock: Clock, ms: number) => new Date(clock.now() - ms).toISOString();

/**
 * The real time, whatever clock the service runs on: for waiting on other processes (a file another
 * program is writing), which a test's clock does not move.
 */
export const wallClock: Clock = new SystemClock();
