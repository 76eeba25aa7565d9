import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError, isApiError } from '@garrison/core';
import { failureBody } from './envelope.js';

/** Turns every failure into the spec's envelope: the one place where errors become responses. */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      const error = isApiError(err) ? err : internal(err, logger, ctx.method, ctx.path);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = failureBody(error.code, error.message, error.extra);
    }
  };
}

function internal(err: unknown, logger: Logger, method: string, path: string): ApiError {
  // 5xx detail stays in the log: a client never sees stack traces or SQL. Knex prefixes a driver's
  // message with the query and its bindings (password hashes, secrets): only the driver's part is logged.
  const e = err as { name?: string; code?: string; message?: string; stack?: string };
  const message = String(e?.message ?? err)
    .split(' - ')
    .pop();
  const stack = e?.stack?.split('\n').slice(1).join('\n');
  logger.error({ err: { type: e?.name, code: e?.code, message, stack }, method, path }, 'request failed');
  return new ApiError('INTERNAL_ERROR', 'internal error');
}
