import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/** One log line per request: method, path (never the query, which may carry a token), status, time. */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
