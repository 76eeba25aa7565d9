import 'reflect-metadata';
import type { Logger } from 'pino';
import { resolveSettings, type Settings, type SettingsInput } from './settings.js';
import { createLogger } from './logging/logger.js';
import { migrate, openDatabase, type Database } from './db/connection.js';
import { nodeIdOf, prepareDataDir } from './data-dir.js';
import { loadAdapters } from './plugins/loader.js';
import { AdapterRegistry } from './plugins/registry.js';
import { SystemClock, type Clock } from './jobs/clock.js';
import { Lifecycles } from './lifecycle/lifecycle.js';
import { DataDirLock } from './db/data-dir-lock.js';
import { compose, featureModules, lifecycleParts } from './compose.js';
import type { FeatureModule } from './modules/feature-module.js';
import { moduleMigrations } from './modules/assembly.js';
import { listen } from './http/server.js';
import type { HubStats } from './ws/hub.js';
import { UserService } from './auth/service.js';
import { tellFirstAdmin } from './auth/first-admin.js';
import { consoleBuilt } from './web-console/serve.js';
import { checkClusterSettings, checkDatabaseForCluster, isCluster } from './cluster/mode.js';

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  settings: Settings;
  logger: Logger;
  /** This instance's id (the owner of the game processes it runs). */
  nodeId: string;
  /** Stops accepting, lets in-flight requests finish, stops the services, closes the database. Game processes are left running. */
  close(): Promise<void>;
  /** Connected WebSocket clients, and messages dropped for clients that did not keep up. */
  webSocketStats(): HubStats;
}

export interface StartOptions extends SettingsInput {
  logger?: Logger;
  /** Folder whose package.json dependencies are searched for adapters besides the server's own (default: cwd). */
  projectRoot?: string;
  /** The time the service runs on; tests give a FakeClock to move it on at once. */
  clock?: Clock;
  /** Feature modules besides the service's own (a test's feature): served, migrated and started with them. */
  modules?: readonly FeatureModule[];
}

/** Boots the whole service: adapters, database, services, HTTP. Used by the CLI and by tests alike. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { logger: givenLogger, projectRoot, clock = new SystemClock(), modules = [], ...input } = options;
  const settings = resolveSettings(input);
  const logger = givenLogger ?? createLogger({ level: settings.logLevel, format: settings.logFormat });
  await prepareDataDir(settings.dataDir, logger);
  // Before anything reads the data dir: a second service on it would adopt the first one's games.
  const lock = DataDirLock.take(settings.dataDir);
  try {
    const loaded = await loadAdapters({ plugins: settings.plugins, projectRoot });
    for (const { definition, source } of loaded) logger.info({ game_type: definition.identity.game_type, source }, 'adapter loaded');
    const adapters = new AdapterRegistry(loaded.map((l) => l.definition));

    const db = openDatabase(settings.databaseUrl, settings.dataDir, logger);
    try {
      checkClusterSettings(settings, db.dialect);
      return await serve(settings, logger, adapters, db, clock, lock, featureModules(modules));
    } catch (err) {
      await db.knex.destroy();
      throw err;
    }
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Everything after the database is open; a failure here leaves the caller to close the database. */
async function serve(
  settings: Settings,
  logger: Logger,
  adapters: AdapterRegistry,
  db: Database,
  clock: Clock,
  lock: DataDirLock,
  modules: readonly FeatureModule[],
): Promise<RunningServer> {
  await migrate(db, clock, moduleMigrations(modules));
  logger.info({ database: db.safeUrl }, 'database ready');
  const nodeId = nodeIdOf(settings);
  if (isCluster(settings))
    logger.info({ node: nodeId, database_version: await checkDatabaseForCluster(db.knex), nats: settings.natsUrl }, 'joining the cluster');
  const container = compose(settings, logger, db, adapters, clock, nodeId, modules);
  const firstAdmin = await container.resolve(UserService).ensureFirstAdmin();
  const lifecycles = new Lifecycles(logger);
  await lifecycles.start(lifecycleParts(container));
  const front = await listen(container).catch(async (err: unknown) => {
    await lifecycles.stop();
    throw err;
  });
  logger.info({ node: nodeId }, `listening on ${front.url}`);
  if (!consoleBuilt()) logger.warn('the web console is not built (npm run build): / answers 404');
  if (!settings.gameRoots.length) {
    logger.warn(
      'no game roots are set (GARRISON_GAME_ROOTS): an admin may point a server, or an import, at any folder of this host but ' +
        'the data, backup and secrets folders; set them (docs/deploy.md)',
    );
  }
  // Only now that the service is reachable.
  tellFirstAdmin(logger, firstAdmin);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await front.close();
      await lifecycles.stop();
      await db.knex.destroy();
      container.clearInstances();
      lock.release();
      logger.info('stopped');
    })());
  return { url: front.url, host: settings.host, port: front.port, settings, logger, nodeId, close, webSocketStats: () => front.stats() };
}
