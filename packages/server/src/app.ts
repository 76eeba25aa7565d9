import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { container as rootContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from './tokens.js';
import { resolveSettings, type Settings, type SettingsInput } from './settings.js';
import { createLogger } from './logger.js';
import { migrate, openDatabase, type Database } from './db/connection.js';
import { bindModels } from './db/models/index.js';
import { loadAdapters } from './plugins/loader.js';
import { AdapterRegistry } from './plugins/registry.js';
import { RouteTable } from './http/route-table.js';
import { errorMiddleware } from './http/errors.js';
import { accessLog } from './http/access-log.js';
import { rateLimitMiddleware } from './http/rate-limit.js';
import { buildOpenApi } from './http/openapi.js';
import { makeAuthenticator } from './auth/authenticate.js';
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

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  settings: Settings;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish, closes the database. Game processes are left running. */
  close(): Promise<void>;
}

export interface StartOptions extends SettingsInput {
  logger?: Logger;
  /** Folder whose package.json dependencies are searched for adapters besides the server's own (default: cwd). */
  projectRoot?: string;
}

/** Boots the whole service: adapters, database, routes, HTTP. Used by the CLI and by tests alike. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { logger: givenLogger, projectRoot, ...input } = options;
  const settings = resolveSettings(input);
  const logger = givenLogger ?? createLogger(settings.logLevel);
  await mkdir(settings.dataDir, { recursive: true });

  const loaded = await loadAdapters({ plugins: settings.plugins, projectRoot });
  for (const { definition, source } of loaded) {
    logger.info({ game_type: definition.identity.game_type, source }, 'adapter loaded');
  }
  const adapters = new AdapterRegistry(loaded.map((l) => l.definition));

  const db = openDatabase(settings.databaseUrl, settings.dataDir);
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

  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Settings, { useValue: settings });
  container.register(TOKENS.Logger, { useValue: logger });
  container.register(TOKENS.Models, { useValue: bindModels(db.knex) });
  container.register(TOKENS.Adapters, { useValue: adapters });
  for (const service of [TokenService, UserService, ServerService, ConfigService, RemoteAdminService]) container.registerSingleton(service as never);

  const users = container.resolve(UserService);
  const servers = container.resolve(ServerService);
  await users.ensureFirstAdmin();

  const routes = new RouteTable();
  authRoutes(routes, container);
  gameRoutes(routes, adapters);
  systemRoutes(routes, servers, adapters);
  const remoteAdmin = container.resolve(RemoteAdminService);
  serverRoutes(routes, servers, remoteAdmin);
  configRoutes(routes, container.resolve(ConfigService));
  rconRoutes(routes, remoteAdmin);

  const router = new Router();
  routes.mount(router, {
    authenticate: makeAuthenticator(container.resolve(TokenService), users),
    adapterOfServer: (id) => servers.adapterOf(id),
    adapters,
  });
  const openApi = buildOpenApi(routes.endpoints(), SERVICE_VERSION);
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = openApi;
  });

  const app = new Koa();
  app.silent = true; // errorMiddleware logs what matters; Koa's own printing would bypass the logger
  app.use(accessLog(logger));
  app.use(errorMiddleware(logger));
  app.use(rateLimitMiddleware(settings));
  app.use(router.routes());

  const http: Server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(settings.port, settings.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const url = `http://${host}:${port}`;
  logger.info(`listening on ${url}`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeIdleConnections();
      });
      await remoteAdmin.closeAll();
      await db.knex.destroy();
      container.clearInstances();
      logger.info('stopped');
    })());

  return { url, host: settings.host, port, settings, logger, close };
}
