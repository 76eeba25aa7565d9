import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** Gives up after this long (default 10 s). */
  timeoutMs?: number;
  /** Polls this often (default 25 ms). */
  intervalMs?: number;
  /** Named in the error when the deadline passes. */
  what?: string;
}

/**
 * Polls `probe` until it returns something other than `undefined`, `null` or `false`, and returns that.
 * A probe that throws counts as "not yet"; its last error is in the message when the deadline passes.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitOptions = {}): Promise<Exclude<T, false | null | undefined>> {
  const { timeoutMs = 10_000, intervalMs = 25, what = 'a condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value as Exclude<T, false | null | undefined>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const why = lastError ? `; last error: ${(lastError as Error).message ?? lastError}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await delay(intervalMs);
  }
}

/** `promise`, or a rejection naming `what` when it has not settled within `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, what = 'an operation'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
