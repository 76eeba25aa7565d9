import type { Logger } from 'pino';
import { createLogger } from '../logging/logger.js';
import { resolveSettings, settingsFromEnv, settingsFromFlags, type Settings } from '../settings.js';
import { prepareDataDir } from '../data-dir.js';
import { migrate, openDatabase, type Database } from '../db/connection.js';
import type { DependencyContainer } from 'tsyringe';
import { SystemClock } from '../jobs/clock.js';
import { AdapterRegistry } from '../plugins/registry.js';
import { compose, featureModules } from '../compose.js';
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
    // Built as `serve` builds it (compose.ts), without the game adapters a command about the data has no use for
    // (`garrison import` composes its own, with them). Its events go nowhere: no one here listens for them live.
    const container = compose(settings, logger, db, new AdapterRegistry([]), new SystemClock(), 'cli');
    return await run({ settings, logger, db, container });
  } finally {
    await db.knex.destroy();
  }
}
