import type { Middleware } from 'koa';
import { METRICS_PATH } from './exposition.js';
import type { PrometheusInstruments } from './instruments.js';

/**
 * Times every HTTP answer into `garrison_http_request_duration_seconds`, labelled by the route's template
 * (`/api/servers/:id`, never the URL with its ids), the method and the status class. Mounted outside the
 * error middleware, so that a failure is counted with the status it was answered with.
 */
export function measureRequests(instruments: PrometheusInstruments): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route =
        typeof matched === 'string'
          ? matched
          : ctx.path === METRICS_PATH
            ? METRICS_PATH
            : ctx.path.startsWith('/api/')
              ? '(no route)'
              : '(console)';
      instruments.httpDuration.observe(
        { route, method: ctx.method, status_class: `${Math.floor(ctx.status / 100)}xx` },
        (performance.now() - started) / 1000,
      );
    }
  };
}
