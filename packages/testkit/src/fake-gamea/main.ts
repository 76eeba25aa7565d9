#!/usr/bin/env node
// The fake gamea dedicated server: `gameaserver_x64.exe -port=… -config=… …` (installed by `garrison-testkit install-fake-gamea`).
import { readGameConfig } from './config-files.js';
import { FakeGame } from './game.js';
import { LaunchError, parseLaunchArguments } from './options.js';
import { runHeadlessClient } from './headless.js';
import { envCount, watchOwner } from '../fake-process/environment.js';

const envInt = (name: string, fallback: number) => envCount(name, fallback, (message) => new LaunchError(message));
/** `GAMEA_FAKE_WATCH_PID`: the test runner this fake goes with (see watchOwner). */
const ownerPid = () => envInt('GAMEA_FAKE_WATCH_PID', 0);

export async function main(exePath: string, argv: string[]): Promise<void> {
  try {
    const options = parseLaunchArguments(argv);
    if (options.client) {
      runHeadlessClient(exePath, options);
      watchOwner(ownerPid(), () => process.exit(0));
      return;
    }
    const config = readGameConfig(options);
    const game = new FakeGame(exePath, options, config, {
      players: envInt('GAMEA_FAKE_PLAYERS', 0),
      readyMs: envInt('GAMEA_FAKE_READY_MS', 300),
      host: process.env.GAMEA_FAKE_HOST || '127.0.0.1',
    });
    await game.start();
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => void game.exit(0, `Received ${signal}, shutting down.`));
    watchOwner(ownerPid(), () => void game.exit(0, `The process this fake watches is gone, shutting down.`));
  } catch (err) {
    const reason =
      err instanceof LaunchError
        ? err.message
        : (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? `port in use: ${(err as Error).message}`
          : String(err);
    process.stderr.write(`gameaserver: cannot start: ${reason}\n`);
    process.exit(1);
  }
}

// The installed launcher passes its own path first, so the fake knows where it "lives".
const [exePath, ...args] = process.argv.slice(2);
if (exePath) void main(exePath, args);
