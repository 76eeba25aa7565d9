import { createLogger } from '../logger.js';
import type { Settings } from '../settings.js';
import { startServer } from '../app.js';
import { PluginLoadError } from '../plugins/loader.js';
import { DatabaseUnavailableError } from '../db/failures.js';

/** Runs the service until SIGTERM or SIGINT, then stops as decisions.md says: games keep running. */
export async function serve(settings: Settings): Promise<void> {
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat });
  let server;
  try {
    server = await startServer({ ...settings, logger });
  } catch (err) {
    if (err instanceof PluginLoadError) logger.fatal({ phase: err.phase, source: err.source, hint: err.hint }, err.message);
    else if (err instanceof DatabaseUnavailableError) logger.fatal(err.message);
    else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') logger.fatal(`port ${settings.port} on ${settings.host} is in use: stop what holds it, or choose another with --port or GARRISON_PORT`);
    else logger.fatal({ err }, 'start-up failed');
    process.exit(1);
  }
  const running = server;
  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
