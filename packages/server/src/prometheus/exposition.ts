import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Middleware } from 'koa';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { ApiError } from '@garrison/core';
import type { PrometheusSettings } from './settings.js';
import type { HttpSettings } from '../http/settings.js';
import { errorMiddleware } from '../http/errors.js';
import { clientAddressMiddleware, trustedRange } from '../http/client-address.js';
import { bearerToken } from '../auth/authenticate.js';
import { isApiKey, type ApiKeyService } from '../auth/api-keys.js';
import type { PrometheusInstruments } from './instruments.js';
import type { ServerFigures } from './server-figures.js';

export const METRICS_PATH = '/metrics';

const isScrape = (ctx: Koa.Context) => ctx.path === METRICS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD');
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The exposition without the samples of servers other than these (a key limited to servers): a sample
 * line naming another `server_id` goes, the service's own series (no `server_id`) stay. A label's value
 * has its quotes escaped, so `server_id="` right after `{` or `,` is always the label itself.
 */
function ofServers(exposition: string, serverIds: readonly number[]): string {
  const allowed = new Set(serverIds.map(String));
  return exposition
    .split('\n')
    .filter((line) => {
      if (line.startsWith('#')) return true;
      const named = /[{,]server_id="([^"]*)"/.exec(line);
      return !named || allowed.has(named[1]);
    })
    .join('\n');
}

/**
 * `GET /metrics`: the registry in Prometheus' text format, or OpenMetrics when the scraper asks for it
 * (Accept: application/openmetrics-text), to a bearer of `GARRISON_METRICS_TOKEN`.
 */
export class MetricsExposition {
  private readonly expected: Buffer | null;
  /** One rendering at a time: an OpenMetrics one switches the registry's format and renames counters while it runs. */
  private rendering: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: PrometheusSettings & Pick<HttpSettings, 'trustProxy'>,
    private readonly instruments: PrometheusInstruments,
    private readonly figures: ServerFigures,
    private readonly keys: ApiKeyService,
  ) {
    this.expected = settings.metricsToken === null ? null : digest(settings.metricsToken);
  }

  /** The route on the API's port: the metrics, or a 404 saying why they are not here. */
  route(): Middleware {
    return async (ctx, next) => {
      if (!isScrape(ctx)) {
        await next();
        return;
      }
      if (!this.expected) throw new ApiError('NOT_FOUND', 'metrics are off: set GARRISON_METRICS_TOKEN to turn GET /metrics on');
      if (this.settings.metricsAddress) throw new ApiError('NOT_FOUND', 'metrics are served on GARRISON_METRICS_ADDRESS, not on this port');
      await this.answer(ctx);
    };
  }

  /** `/metrics` alone on an address of its own (GARRISON_METRICS_ADDRESS). */
  async listenApart(logger: Logger): Promise<{ url: string; close(): Promise<void> }> {
    const address = this.settings.metricsAddress!;
    const at = address.lastIndexOf(':');
    const host = address.slice(0, at).replace(/^\[|\]$/g, '');
    const app = new Koa();
    app.silent = true;
    app.use(clientAddressMiddleware(this.settings.trustProxy.map(trustedRange)));
    app.use(errorMiddleware(logger));
    app.use(async (ctx, next) => {
      if (isScrape(ctx)) await this.answer(ctx);
      else await next();
    });
    const handle = app.callback(); // settles every request itself: its promise is left to run
    const http: Server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(Number(address.slice(at + 1)), host, () => resolve());
    });
    const { port } = http.address() as AddressInfo;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${METRICS_PATH}`;
    logger.info({ url }, 'metrics served');
    return {
      url,
      close: () => {
        http.closeAllConnections();
        return new Promise<void>((resolve) => http.close(() => resolve()));
      },
    };
  }

  private async answer(ctx: Koa.Context): Promise<void> {
    const given = bearerToken(ctx);
    let only: readonly number[] | null = null;
    if (given && isApiKey(given)) {
      // An API key with the `metrics` scope does as well as the token (its owner may be a viewer), for its servers.
      const { key } = await this.keys.principalOf(given, ctx.ip);
      if (!key!.scopes.includes('metrics')) throw new ApiError('FORBIDDEN', 'this API key lacks the scope metrics');
      only = key!.server_ids;
    } else if (!given || !timingSafeEqual(digest(given), this.expected!)) {
      throw new ApiError(
        'UNAUTHORIZED',
        'GET /metrics needs Authorization: Bearer <GARRISON_METRICS_TOKEN>, or an API key with the scope metrics',
      );
    }
    const openMetrics = /application\/openmetrics-text/i.test(ctx.get('accept'));
    const rendered = this.rendering.then(() => this.render(openMetrics));
    this.rendering = Promise.allSettled([rendered]); // the next waits for this one; its failure is this request's, answered below
    const { body, contentType } = await rendered;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = only ? ofServers(body, only) : body;
  }

  private async render(openMetrics: boolean): Promise<{ body: string; contentType: string }> {
    await this.figures.refresh();
    const registry = this.instruments.registry;
    if (!openMetrics) return { body: await registry.metrics(), contentType: registry.contentType };
    // prom-client writes OpenMetrics by renaming each counter (`x_total` → `x`) for good: the names are
    // put back afterwards, so that the next text-format scrape is unchanged.
    const metrics = registry.getMetricsAsArray() as unknown as { name: string }[];
    const names = metrics.map((metric) => metric.name);
    registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    try {
      return { body: await registry.metrics(), contentType: Registry.OPENMETRICS_CONTENT_TYPE };
    } finally {
      registry.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
      metrics.forEach((metric, i) => (metric.name = names[i]!));
    }
  }
}
