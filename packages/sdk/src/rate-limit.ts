/** The service's budget of requests for this client's token, from the `RateLimit-*` headers of its last answer. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the budget is whole again, in milliseconds since the epoch (by this machine's clock). */
  resetAt: number;
}

/** The budget an answer reports, or null when it reports none (a public read, or limits turned off). */
export function rateLimitOf(headers: Headers, now = Date.now()): RateLimitState | null {
  const limit = Number(headers.get('ratelimit-limit'));
  const remaining = Number(headers.get('ratelimit-remaining'));
  const reset = Number(headers.get('ratelimit-reset'));
  if (!headers.has('ratelimit-remaining') || ![limit, remaining, reset].every((n) => Number.isFinite(n) && n >= 0)) return null;
  return { limit, remaining, resetAt: now + reset * 1000 };
}
