import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError, type EndpointDef } from '@garrison/core';
import type { HttpSettings } from './settings.js';
import { bearerToken } from '../auth/authenticate.js';
import type { RateLimits } from '../cluster/rate-limits.js';

/**
 * The budget left, on every counted answer (429s too), in the widely used form of the IETF draft
 * (`RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` in seconds), so that a client such as the
 * console can slow down before it is refused.
 */
function budgetHeaders(points: number, res: RateLimiterRes): Record<string, string> {
  return {
    'RateLimit-Limit': String(points),
    'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
    'RateLimit-Reset': String(Math.max(0, Math.ceil(res.msBeforeNext / 1000))),
  };
}

/**
 * Login attempts per client IP, and every other request that carries a token, per token: the two limits
 * the spec names. Token-less requests are public reads or are refused with 401 at once. Answers 429
 * `RATE_LIMITED` with `Retry-After`. Which limit a request meets is told by the endpoint the router
 * matched (`endpointOf`), so that `/api/auth/LOGIN/` counts as `/api/auth/login` does.
 */
export function rateLimitMiddleware(
  settings: Pick<HttpSettings, 'loginRateLimit' | 'rateLimit'>,
  limits: RateLimits,
  endpointOf: (ctx: Context) => EndpointDef | null,
): Middleware {
  const login = limits.limiter('login', settings.loginRateLimit);
  const general = limits.limiter('general', settings.rateLimit);
  return async (ctx, next) => {
    // A request a peer forwarded was counted where the client sent it.
    if (ctx.state.forwardedBy) {
      await next();
      return;
    }
    const isLogin = endpointOf(ctx)?.rateLimit === 'login';
    const token = isLogin ? null : bearerToken(ctx);
    const active = isLogin ? login : token ? general : null;
    const points = isLogin ? settings.loginRateLimit : settings.rateLimit;
    if (active) {
      // Keys hold a digest, never the token itself.
      const key = token ? `token:${createHash('sha256').update(token).digest('base64url')}` : `ip:${ctx.ip}`;
      try {
        ctx.set(budgetHeaders(points, await active.consume(key)));
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new ApiError('RATE_LIMITED', `too many requests; retry in ${retryAfter} s`, {
          headers: { 'Retry-After': String(retryAfter), ...budgetHeaders(points, err) },
        });
      }
    }
    await next();
  };
}
