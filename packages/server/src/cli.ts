#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createLogger } from './logger.js';
import { settingsFromEnv } from './settings.js';
import { startServer } from './app.js';
import { PluginLoadError } from './plugins/loader.js';

const USAGE = `usage: garrison serve [--port N] [--host H] [--data-dir DIR] [--database URL]

  --port       GARRISON_PORT          (default 8080)
  --host       GARRISON_HOST          (default 127.0.0.1)
  --data-dir   GARRISON_DATA_DIR      (default ./data)
  --database   GARRISON_DATABASE_URL  (default: SQLite garrison.db in the data dir; mysql://user:pass@host:3306/db)`;

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      database: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = settingsFromEnv();
  const logger = createLogger(env.logLevel ?? 'info');
  const port = values.port !== undefined ? Number(values.port) : env.port;
  if (port !== undefined && !Number.isInteger(port)) throw new Error(`--port must be an integer, got ${values.port}`);
  try {
    const server = await startServer({
      ...env,
      port,
      host: values.host ?? env.host,
      dataDir: values['data-dir'] ?? env.dataDir,
      databaseUrl: values.database ?? env.databaseUrl,
      logger,
    });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      server.close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } catch (err) {
    if (err instanceof PluginLoadError) logger.fatal({ phase: err.phase, source: err.source, hint: err.hint }, err.message);
    else logger.fatal({ err }, 'start-up failed');
    process.exit(1);
  }
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'serve') {
  serve(rest).catch((err: unknown) => {
    console.error((err as Error).message);
    console.error(USAGE);
    process.exit(2);
  });
} else {
  console.error(USAGE);
  process.exit(command ? 2 : 0);
}
