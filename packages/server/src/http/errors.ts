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
  // 5xx detail stays in the log: a client never sees stack traces or SQL.
  logger.error({ err, method, path }, 'request failed');
  return new ApiError('INTERNAL_ERROR', 'internal error');
}
