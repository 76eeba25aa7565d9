#!/usr/bin/env node
// The fake gameb dedicated server: `gamebserver -console -port … +map …` (installed by `garrison-testkit install-fake-gameb`).
import { FakeGameB } from './game.js';
import { LaunchError, parseLaunchArguments } from './options.js';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new LaunchError(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The fake exits once the process `GAMEB_FAKE_WATCH_PID` names is gone (or `GAMEA_FAKE_WATCH_PID`, which
 * the test runner sets for every fake it may start), so that no fake a crashed test left behind keeps
 * running and holding its ports.
 */
function watchOwner(onGone: () => void): void {
  const pid = envInt('GAMEB_FAKE_WATCH_PID', envInt('GAMEA_FAKE_WATCH_PID', 0));
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
    const game = new FakeGameB(exePath, options, {
      host: process.env.GAMEB_FAKE_HOST || '127.0.0.1',
      readyMs: envInt('GAMEB_FAKE_READY_MS', 0),
      packetGapMs: envInt('GAMEB_FAKE_PACKET_GAP_MS', 0),
    });
    await game.start();
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => void game.exit(0, `Received ${signal}, shutting down.`));
    watchOwner(() => void game.exit(0, 'The process this fake watches is gone, shutting down.'));
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
