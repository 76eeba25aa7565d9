import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { container as rootContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from './tokens.js';
import { resolveSettings, type Settings, type SettingsInput } from './settings.js';
import { createLogger } from './logger.js';
import { migrate, openDatabase, type Database } from './db/connection.js';
import { prepareDataDir } from './data-dir.js';
import { bindModels } from './db/models/index.js';
import { TableVersions } from './db/table-versions.js';
import { ReadCache } from './db/read-cache.js';
import { loadAdapters } from './plugins/loader.js';
import { AdapterRegistry } from './plugins/registry.js';
import { RouteTable } from './http/route-table.js';
import { errorMiddleware } from './http/errors.js';
import { accessLog } from './http/access-log.js';
import { rateLimitMiddleware } from './http/rate-limit.js';
import { answerProtocolErrors, requireHost } from './http/protocol-errors.js';
import { boundUnreadBody, lingerOnClose } from './http/lingering-close.js';
import { buildOpenApi } from './http/openapi.js';
import { bearerToken, makeAuthenticator } from './auth/authenticate.js';
import { authRoutes } from './auth/routes.js';
import { TokenService } from './auth/tokens.js';
import { UserService } from './auth/service.js';
import { gameRoutes } from './games/routes.js';
import { SERVICE_VERSION, systemRoutes } from './system/routes.js';
import { ServerService } from './servers/service.js';
import { serverRoutes } from './servers/routes.js';
import { ConfigService } from './config/service.js';
import { configRoutes } from './config/routes.js';
import { RemoteAdminService } from './rcon/service.js';
import { rconRoutes } from './rcon/routes.js';
import { InProcessEventBus } from './events/bus.js';
import { AuditService } from './audit/service.js';
import { auditRoutes } from './audit/routes.js';
import { Supervisor } from './supervisor/supervisor.js';
import { lifecycleRoutes } from './supervisor/routes.js';
import { WebSocketHub, type HubStats } from './ws/hub.js';
import { LiveFigures } from './metrics/live-values.js';
import { MetricsService } from './metrics/service.js';
import { metricsRoutes } from './metrics/routes.js';
import { LogService } from './logs/service.js';
import { logRoutes } from './logs/routes.js';
import { PlayerService } from './players/service.js';
import { playerRoutes } from './players/routes.js';
import { BanService } from './bans/service.js';
import { banRoutes } from './bans/routes.js';
import { LogFileService } from './logfiles/service.js';
import { logFileRoutes } from './logfiles/routes.js';
import { MissionService } from './missions/service.js';
import { missionRoutes } from './missions/routes.js';
import { ModService } from './mods/service.js';
import { consoleBuilt, webConsole } from './web-console/serve.js';
import { modRoutes } from './mods/routes.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  settings: Settings;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish, closes the database. Game processes are left running. */
  close(): Promise<void>;
  /** Connected WebSocket clients, and messages dropped for clients that did not keep up. */
  webSocketStats(): HubStats;
}

export interface StartOptions extends SettingsInput {
  logger?: Logger;
  /** Folder whose package.json dependencies are searched for adapters besides the server's own (default: cwd). */
  projectRoot?: string;
}

const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Boots the whole service: adapters, database, routes, HTTP. Used by the CLI and by tests alike. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { logger: givenLogger, projectRoot, ...input } = options;
  const settings = resolveSettings(input);
  const logger = givenLogger ?? createLogger({ level: settings.logLevel, format: settings.logFormat });
  await prepareDataDir(settings.dataDir, logger);

  const loaded = await loadAdapters({ plugins: settings.plugins, projectRoot });
  for (const { definition, source } of loaded) {
    logger.info({ game_type: definition.identity.game_type, source }, 'adapter loaded');
  }
  const adapters = new AdapterRegistry(loaded.map((l) => l.definition));

  const db = openDatabase(settings.databaseUrl, settings.dataDir, logger);
  try {
    return await serve(settings, logger, adapters, db);
  } catch (err) {
    await db.knex.destroy();
    throw err;
  }
}

/** Everything after the database is open; a failure here leaves the caller to close the database. */
async function serve(settings: Settings, logger: Logger, adapters: AdapterRegistry, db: Database): Promise<RunningServer> {
  await migrate(db);
  logger.info({ database: db.safeUrl }, 'database ready');
  const tableVersions = new TableVersions(db.knex);

  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Settings, { useValue: settings });
  container.register(TOKENS.Logger, { useValue: logger });
  container.register(TOKENS.Models, { useValue: bindModels(db.knex) });
  container.register(TOKENS.Adapters, { useValue: adapters });
  const events = new InProcessEventBus((err, event) => logger.error({ err, type: event.type }, 'event subscriber failed'));
  container.register(TOKENS.Events, { useValue: events });
  const services = [TokenService, UserService, LiveFigures, ServerService, ConfigService, RemoteAdminService, AuditService, Supervisor, LogService, MetricsService, PlayerService, BanService, LogFileService, MissionService, ModService];
  for (const service of services) {
    container.registerSingleton(service as never);
  }

  const users = container.resolve(UserService);
  const servers = container.resolve(ServerService);
  const firstAdmin = await users.ensureFirstAdmin();

  const routes = new RouteTable();
  authRoutes(routes, container);
  gameRoutes(routes, adapters);
  systemRoutes(routes, servers, adapters);
  const remoteAdmin = container.resolve(RemoteAdminService);
  const audit = container.resolve(AuditService);
  const supervisor = container.resolve(Supervisor);
  serverRoutes(routes, servers, remoteAdmin, supervisor, audit);
  lifecycleRoutes(routes, supervisor);
  configRoutes(routes, container.resolve(ConfigService), audit);
  rconRoutes(routes, remoteAdmin, audit, servers, adapters);
  auditRoutes(routes, servers, audit);
  const logs = container.resolve(LogService);
  const metrics = container.resolve(MetricsService);
  logRoutes(routes, servers, logs);
  metricsRoutes(routes, servers, metrics);
  const players = container.resolve(PlayerService);
  const bans = container.resolve(BanService);
  playerRoutes(routes, players, bans, audit);
  banRoutes(routes, bans, audit);
  logFileRoutes(routes, container.resolve(LogFileService), audit);
  missionRoutes(routes, container.resolve(MissionService), audit);
  modRoutes(routes, container.resolve(ModService), audit);
  supervisor.watch(logs);
  supervisor.watch(metrics);
  supervisor.watch(players);
  await supervisor.adoptAll();
  bans.start();
  // The audit trail and the player history: pruned at start and every hour.
  const pruneHistory = () =>
    Promise.all([audit.prune(settings.historyRetentionDays), players.prune(settings.historyRetentionDays)]).catch((err) =>
      logger.warn({ err: (err as Error).message }, 'history retention failed'),
    );
  void pruneHistory();
  const historyTimer = setInterval(pruneHistory, 3_600_000);
  historyTimer.unref();

  const router = new Router();
  const authenticate = makeAuthenticator(container.resolve(TokenService), users, new ReadCache(tableVersions));
  routes.mount(router, {
    authenticate: (ctx) => authenticate(bearerToken(ctx)),
    adapterOfServer: (id) => servers.adapterOf(id),
    adapters,
    answers: new ReadCache(tableVersions),
  });
  const openApi = buildOpenApi(routes.endpoints(), SERVICE_VERSION);
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = openApi;
  });

  const app = new Koa();
  app.silent = true; // errorMiddleware logs what matters; Koa's own printing would bypass the logger
  app.use(accessLog(logger));
  app.use(boundUnreadBody());
  app.use(errorMiddleware(logger));
  app.use(requireHost());
  app.use(webConsole());
  app.use(rateLimitMiddleware(settings));
  app.use(router.routes());

  // Host is checked by requireHost, so that its absence is answered in the envelope like every failure.
  const http: Server = createServer({ requireHostHeader: false }, app.callback());
  // Node's default of 5 minutes per request would cut off a 500 MB mission upload on a slow link.
  http.requestTimeout = 60 * 60_000;
  // Longer than the clients' and proxies' own idle time-outs (nginx keeps upstream connections 60 s): the
  // server closing an idle connection first races a request sent on it, which then fails with a reset.
  http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  answerProtocolErrors(http, logger);
  lingerOnClose(http);
  const hub = new WebSocketHub(http, events, authenticate, logger);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${host}:${port}`;
  logger.info(`listening on ${url}`);
  if (!consoleBuilt()) logger.warn('the web console is not built (npm run build): / answers 404');
  if (firstAdmin.generatedPassword) {
    // Deliberately outside the redacted fields, and only now that the service is reachable.
    logger.warn(
      `created the first admin user "${firstAdmin.username}" with generated password: ${firstAdmin.generatedPassword} (also in ${firstAdmin.passwordFile} until it is changed)`,
    );
  } else if (firstAdmin.passwordFile) {
    logger.warn(`the generated password of the first admin "${firstAdmin.username}" is in ${firstAdmin.passwordFile} until it is changed`);
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      await hub.close();
      await closed;
      await supervisor.close();
      metrics.close();
      bans.close();
      clearInterval(historyTimer);
      await logs.close();
      await remoteAdmin.closeAll();
      await audit.flush();
      await db.knex.destroy();
      container.clearInstances();
      logger.info('stopped');
    })());

  return { url, host: settings.host, port, settings, logger, close, webSocketStats: () => hub.stats() };
}
