import type { Logger } from 'pino';
import { createLogger } from '../logging/logger.js';
import { resolveSettings, settingsFromEnv, settingsFromFlags, type Settings } from '../settings.js';
import { prepareDataDir } from '../data-dir.js';
import { migrate, openDatabase, type Database } from '../db/connection.js';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { TOKENS } from '../tokens.js';
import { DatabaseAccess } from '../db/access.js';
import { bindRepositories } from '../db/repositories/index.js';
import { SystemClock } from '../jobs/clock.js';
import { InProcessEventBus } from '../events/bus.js';
import { featureModules } from '../compose.js';
import { moduleMigrations } from '../modules/assembly.js';

export interface Store {
  settings: Settings;
  logger: Logger;
  db: Database;
  /** The services a command uses, built as the running service builds them. */
  container: DependencyContainer;
}

/**
 * The same data dir and database as `serve` (same flags, same environment), schema up to date; logs
 * go to standard error so that standard output holds only the command's answer.
 */
export async function withStore<T>(
  flags: Record<string, unknown>,
  run: (store: Store) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const settings = resolveSettings({
    logLevel: 'warn',
    ...settingsFromEnv(),
    ...settingsFromFlags(flags as Record<string, string | undefined>),
  });
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat, destination: process.stderr });
  await prepareDataDir(settings.dataDir, logger);
  const db = openDatabase(settings.databaseUrl, settings.dataDir, logger);
  try {
    if (options.migrate !== false) await migrate(db, new SystemClock(), moduleMigrations(featureModules()));
    const container = rootContainer.createChildContainer();
    container.register(TOKENS.Settings, { useValue: settings });
    container.register(TOKENS.Logger, { useValue: logger });
    container.register(TOKENS.Repositories, { useValue: bindRepositories(db.knex) });
    const clock = new SystemClock();
    container.register(TOKENS.Clock, { useValue: clock });
    // A command's audit entries are written with its changes; no one here listens for them live.
    container.register(TOKENS.Events, { useValue: new InProcessEventBus('cli', clock) });
    container.register(TOKENS.Database, { useValue: db });
    container.register(TOKENS.DatabaseAccess, { useValue: new DatabaseAccess(db) });
    return await run({ settings, logger, db, container });
  } finally {
    await db.knex.destroy();
  }
}
