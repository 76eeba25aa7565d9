import type { LaunchOptions } from './options.js';
import { RptLog } from './rpt-log.js';

/**
 * The fake as a headless client (`-client`): it reads no config and binds no port (the server has
 * them); it writes its own `.rpt` in its profile folder, says it joined, and runs until asked to stop.
 * Faults for tests: SIGUSR2 makes it crash (exit 3 at once), like `testkit.crash` does to the server.
 */
export function runHeadlessClient(exePath: string, options: LaunchOptions): void {
  const log = new RptLog(options.profiles, exePath, 'short');
  log.write(`Headless client ${options.name} starting.`);
  for (const mod of options.mods) log.write(`Mod loaded: ${mod}`);
  log.write(
    `Connected to ${options.client!.connect}:${options.port} ` +
      `as ${options.name}${options.client!.password ? ' (with the server password)' : ''}.`,
  );
  const exit = (code: number, reason: string) => {
    log.write(reason);
    void log.close().then(() => process.exit(code));
    setTimeout(() => process.exit(code), 1000).unref();
  };
  process.once('SIGTERM', () => exit(0, 'Received SIGTERM, disconnecting.'));
  process.once('SIGINT', () => exit(0, 'Received SIGINT, disconnecting.'));
  process.once('SIGUSR2', () => process.exit(3));
  // Keeps running: a headless client has no end of its own.
  setInterval(() => {}, 60_000);
}
