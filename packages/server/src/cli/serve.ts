import type { Logger } from 'pino';
import { createLogger, endLog } from '../logging/logger.js';
import type { Settings } from '../settings.js';
import { startServer, type RunningServer } from '../app.js';
import { SystemClock } from '../jobs/clock.js';
import { PluginLoadError } from '../plugins/loader.js';
import { DatabaseUnavailableError } from '../db/failures.js';
import { SettingError } from '../setting-specs.js';
import { DataDirInUseError } from '../db/data-dir-lock.js';

/** Runs the service until SIGTERM or SIGINT, then stops as decisions.md says: games keep running. */
export async function serve(settings: Settings): Promise<void> {
  const logger = createLogger({ level: settings.logLevel, format: settings.logFormat });
  // Handled from the first moment: a signal during start-up stops the service once it is up, rather
  // than killing it half-way (the default action) between its listening line and its handlers.
  let running: RunningServer | null = null;
  let signals = 0;
  const exit = (code: number) => void endLog(logger, new SystemClock()).then(() => process.exit(code));
  const stop = (server: RunningServer) =>
    server.close().then(
      () => exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  // A Ctrl-C in a terminal reaches node twice (from the terminal, and forwarded by npm), and a service
  // manager's group SIGTERM as well: the repeat must not cut the graceful stop short. A third forces it.
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals === 1) {
      logger.info({ signal }, 'shutting down');
      if (running) void stop(running);
    } else if (signals === 2) {
      logger.info({ signal }, 'already shutting down: waiting for in-flight work; a third signal forces the exit');
    } else {
      logger.warn({ signal }, 'shutdown forced by a third signal: in-flight requests are cut off, game servers keep running');
      exit(1);
    }
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  try {
    running = await startServer({ ...settings, logger });
  } catch (err) {
    reportStartFailure(err, settings, logger);
    return exit(1);
  }
  if (signals > 0) void stop(running);
}

function reportStartFailure(err: unknown, settings: Settings, logger: Logger): void {
  if (err instanceof PluginLoadError) logger.fatal({ phase: err.phase, source: err.source, hint: err.hint }, err.message);
  else if (err instanceof DataDirInUseError) logger.fatal({ data_dir: err.dataDir, holder: err.holder }, err.message);
  else if (err instanceof DatabaseUnavailableError || err instanceof SettingError) logger.fatal(err.message);
  else if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    logger.fatal(`port ${settings.port} on ${settings.host} is in use: stop what holds it, or choose another with --port or GARRISON_PORT`);
  else logger.fatal({ err }, 'start-up failed');
}
