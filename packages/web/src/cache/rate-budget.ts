import type { RateLimitState } from '@garrison/sdk';

/**
 * The service allows each token so many requests a minute and says after every answer how many are
 * left. Reads ask here first: a background refresh waits while less than a third of the budget is left,
 * a read a person waits for while almost nothing is, each until the budget is whole again. So the
 * console slows itself down before the limit and never runs into it.
 */
let known: RateLimitState | null = null;

export function noteBudget(state: RateLimitState): void {
  known = { ...state };
}

/** What is left now, as far as this page knows (null: no limit known). */
export function budgetLeft(now = Date.now()): number | null {
  return known && now < known.resetAt ? known.remaining : null;
}

export type Priority = 'background' | 'person';

const reserveFor = (priority: Priority, limit: number) =>
  priority === 'background' ? Math.ceil(limit / 3) : Math.min(3, Math.ceil(limit / 10));

/**
 * Resolves when a read of this priority may be made, and counts it against the budget. `onWait` is told
 * how many seconds it will wait when it must, so that a person waiting is told why nothing comes.
 */
export async function permit(priority: Priority, onWait?: (seconds: number) => void): Promise<void> {
  for (;;) {
    const now = Date.now();
    if (!known || now >= known.resetAt) return;
    if (known.remaining > reserveFor(priority, known.limit)) {
      // Counted at once, so that reads made together do not all see the same budget.
      known.remaining -= 1;
      return;
    }
    onWait?.(Math.ceil((known.resetAt - now) / 1000));
    await new Promise((resolve) => setTimeout(resolve, known!.resetAt - now + 250));
  }
}

export function forgetBudget(): void {
  known = null;
}
