#!/usr/bin/env node
// The fake gameb dedicated server: `gamebserver -console -port … +map …` (installed by `garrison-testkit install-fake-gameb`).
import { FakeGameB } from './game.js';
import { LaunchError, parseLaunchArguments } from './options.js';
import { envCount, watchOwner } from '../fake-process/environment.js';

const envInt = (name: string, fallback: number) => envCount(name, fallback, (message) => new LaunchError(message));
/** The test runner this fake goes with: `GAMEB_FAKE_WATCH_PID`, or `GAMEA_FAKE_WATCH_PID`, which the runner sets for every fake. */
const ownerPid = () => envInt('GAMEB_FAKE_WATCH_PID', envInt('GAMEA_FAKE_WATCH_PID', 0));

export async function main(exePath: string, argv: string[]): Promise<void> {
  try {
    const options = parseLaunchArguments(argv);
    const game = new FakeGameB(exePath, options, {
      host: process.env.GAMEB_FAKE_HOST || '127.0.0.1',
      readyMs: envInt('GAMEB_FAKE_READY_MS', 0),
      packetGapMs: envInt('GAMEB_FAKE_PACKET_GAP_MS', 0),
      universe: Math.min(1, envInt('GAMEB_FAKE_UNIVERSE', 0)),
    });
    await game.start();
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => void game.exit(0, `Received ${signal}, shutting down.`));
    watchOwner(ownerPid(), () => void game.exit(0, 'The process this fake watches is gone, shutting down.'));
  } catch (err) {
    const reason =
      err instanceof LaunchError
        ? err.message
        : (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? `port in use: ${(err as Error).message}`
          : String(err);
    process.stderr.write(`gamebserver: cannot start: ${reason}\n`);
    process.exit(1);
  }
}

// The installed launcher passes its own path first, so the fake knows its game folder (cfg, maps, logs).
const [exePath, ...args] = process.argv.slice(2);
if (exePath) void main(exePath, args);
