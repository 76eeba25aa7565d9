#!/usr/bin/env node
// The fake gamea dedicated server: `gameaserver_x64.exe -port=… -config=… …` (installed by `garrison-testkit install-fake-gamea`).
import { readGameConfig } from './config-files.js';
import { FakeGame } from './game.js';
import { LaunchError, parseLaunchArguments } from './options.js';
import { runHeadlessClient } from './headless.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new LaunchError(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * `GAMEA_FAKE_WATCH_PID`: the fake exits once that process is gone. A test runner sets it to its own pid,
 * so a fake that a crashed or killed test left behind (or that a service started in a process group of
 * its own) cannot keep running, and holding its ports, after the run.
 */
function watchOwner(game: FakeGame): void {
  watchOwnerOf(() => void game.exit(0, `The process this fake watches is gone, shutting down.`));
}

function watchOwnerOf(onGone: () => void): void {
  const pid = envInt('GAMEA_FAKE_WATCH_PID', 0);
  if (!pid) return;
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPERM') return; // alive, someone else's
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}

export async function main(exePath: string, argv: string[]): Promise<void> {
  try {
    const options = parseLaunchArguments(argv);
    if (options.client) {
      runHeadlessClient(exePath, options);
      watchOwnerOf(() => process.exit(0));
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
    watchOwner(game);
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
