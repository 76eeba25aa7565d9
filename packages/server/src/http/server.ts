import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import type { DependencyContainer } from 'tsyringe';
import { TOKENS } from '../tokens.js';
import { RouteTable } from './route-table.js';
import { errorMiddleware } from './errors.js';
import { accessLog } from './access-log.js';
import { rateLimitMiddleware } from './rate-limit.js';
import { answerProtocolErrors, requireHost } from './protocol-errors.js';
import { boundUnreadBody, lingerOnClose } from './lingering-close.js';
import { trackInFlight } from './in-flight.js';
import { applyFileLimit, boundBodyIdleTime, capConnectionsPerAddress, TIMEOUT_CHECK_MS } from './connection-limits.js';
import { clientAddressMiddleware, clientAddressOf, isTrustedProxy, trustedRange } from './client-address.js';
import { buildOpenApi } from './openapi.js';
import { ReadCache } from '../db/read-cache.js';
import { bearerToken, makeAuthenticator } from '../auth/authenticate.js';
import { TokenService } from '../auth/tokens.js';
import { UserService } from '../auth/service.js';
import { ApiKeyService } from '../auth/api-keys.js';
import { SessionService } from '../auth/sessions.js';
import { ServerService } from '../servers/service.js';
import { WebSocketHub, type HubStats } from '../ws/hub.js';
import { webConsole } from '../web-console/serve.js';
import { SERVICE_VERSION } from '../system/version.js';
import { implementModuleRoutes, moduleEndpoints } from '../modules/assembly.js';
import { Forwarder, FORWARDED_HEADERS } from '../cluster/forwarding.js';
import { watchForwardedBodies } from '../cluster/signed-body.js';
import { RateLimits } from '../cluster/rate-limits.js';
import { isCluster } from '../cluster/mode.js';
import { NodeService } from '../nodes/service.js';
import { PrometheusInstruments } from '../prometheus/instruments.js';
import { ServerFigures } from '../prometheus/server-figures.js';
import { MetricsExposition } from '../prometheus/exposition.js';
import { measureRequests } from '../prometheus/http-duration.js';

/** Longer than the clients' and proxies' own idle time-outs (nginx keeps upstream connections 60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface HttpFront {
  url: string;
  port: number;
  stats(): HubStats;
  /** Stops accepting, closes the WebSockets with 1001, lets the answers under way finish. */
  close(): Promise<void>;
}

/** The HTTP and WebSocket front: the routes of the feature modules over their services, on a listening port. */
export async function listen(container: DependencyContainer): Promise<HttpFront> {
  const settings = container.resolve(TOKENS.Settings);
  const logger = container.resolve(TOKENS.Logger);
  const adapters = container.resolve(TOKENS.Adapters);
  const tableVersions = container.resolve(TOKENS.DatabaseAccess).watchTableVersions();
  const servers = container.resolve(ServerService);
  // A kept read is made again at once after a write of this process's, but another instance's write would
  // go unseen for up to its age: in a cluster nothing is kept (a user deleted through another instance is
  // refused here at once, a server made there is listed at once).
  const keptFor = isCluster(settings) ? 0 : 1_000;
  const authenticate = makeAuthenticator(
    container.resolve(TokenService),
    container.resolve(UserService),
    new ReadCache(tableVersions, keptFor),
    container.resolve(ApiKeyService),
    container.resolve(SessionService),
  );

  const forwarder = container.resolve(Forwarder);
  const modules = container.resolve(TOKENS.Modules);
  const routes = new RouteTable(moduleEndpoints(modules));
  implementModuleRoutes(routes, container, modules);
  const router = new Router();
  routes.mount(router, {
    authenticate: (ctx) => authenticate(bearerToken(ctx), ctx.state.forwardedBy ? null : ctx.ip),
    adapterOfServer: (id) => servers.adapterOf(id),
    adapters,
    answers: new ReadCache(tableVersions, keptFor),
    forwarder,
  });
  const openApi = buildOpenApi(routes.endpoints(), SERVICE_VERSION);
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = openApi;
  });

  const instruments = container.resolve(PrometheusInstruments);
  const figures = container.resolve(ServerFigures);
  const metrics = new MetricsExposition(settings, instruments, figures, container.resolve(ApiKeyService));

  const trusted = settings.trustProxy.map(trustedRange);
  const app = new Koa();
  app.silent = true; // errorMiddleware logs what matters; Koa's own printing would bypass the logger
  app.use(clientAddressMiddleware(trusted));
  if (instruments.enabled) app.use(measureRequests(instruments));
  app.use(accessLog(logger));
  app.use(boundUnreadBody());
  app.use(errorMiddleware(logger));
  app.use(requireHost());
  app.use(async (ctx, next) => {
    ctx.state.forwardedBy = await forwarder.forwardedBy(ctx);
    await next();
  });
  app.use(metrics.route());
  app.use(webConsole());
  app.use(rateLimitMiddleware(settings, container.resolve(RateLimits), routes.endpointOf(router)));
  app.use(router.routes());

  // Host is checked by requireHost, so that its absence is answered in the envelope like every failure.
  // The whole-request time stays long (a 500 MB mission upload on a slow link); a client that stops
  // sending is cut by the headers time-out, or by the body's idle time-out (boundBodyIdleTime).
  const http: Server = createServer({
    requireHostHeader: false,
    headersTimeout: settings.headersTimeoutS * 1000,
    requestTimeout: settings.requestTimeoutS * 1000,
    connectionsCheckingInterval: TIMEOUT_CHECK_MS,
  });
  // Koa's handler settles every request itself (its error middleware answers a throw), so its promise is left to run.
  const handle = app.callback();
  http.on(
    'request',
    capConnectionsPerAddress(
      http,
      settings,
      logger,
      (req, res) => void handle(req, res),
      (address) => isTrustedProxy(address, trusted),
    ),
  );
  boundBodyIdleTime(http, settings);
  applyFileLimit(http, settings, logger);
  // The server closing an idle connection first races a request sent on it, which then fails with a reset.
  http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  watchForwardedBodies(http, FORWARDED_HEADERS);
  answerProtocolErrors(http, logger);
  lingerOnClose(http);
  const inFlight = trackInFlight(http);
  const [events, clock, jobs] = [container.resolve(TOKENS.Events), container.resolve(TOKENS.Clock), container.resolve(TOKENS.Jobs)];
  const hub = new WebSocketHub(events, authenticate, logger, clock, jobs, settings, (req) => clientAddressOf(req, trusted));
  hub.attach(http);
  figures.countClients(() => hub.stats().clients);
  container.resolve(ApiKeyService).onRevoked(() => void hub.recheck());
  container.resolve(SessionService).onEnded(() => void hub.recheck());
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const apart =
    settings.metricsToken && settings.metricsAddress
      ? await metrics.listenApart(logger).catch(async (err: unknown) => {
          await hub.close();
          await new Promise<void>((resolve) => http.close(() => resolve()));
          throw err;
        })
      : null;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  await container.resolve(NodeService).listeningAt(`http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`);
  return {
    url: `http://${host}:${port}`,
    port,
    stats: () => hub.stats(),
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      inFlight.closeAfterAnswers();
      http.closeIdleConnections();
      await hub.close();
      await apart?.close();
      await closed;
      forwarder.close();
    },
  };
}
