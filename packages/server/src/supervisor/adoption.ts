import type { Logger } from 'pino';
import { ACTIVE_STATUSES } from '@garrison/core';
import type { ProcessRow, ServerRow } from '../db/repositories/index.js';
import type { ProcessHandle } from '../processes/handle.js';

/** What adoption asks of the supervisor, and nothing more (the Supervisor implements it). */
export interface AdoptionHost {
  readonly logger: Logger;
  /** This instance's process rows (claimed for it), and this node's servers recorded active with none, by server. */
  adoptable(): Promise<Map<number, ProcessRow[]>>;
  /** Runs `work` under the server's lock, as every action on one server does. */
  underLock(serverId: number, work: () => Promise<void>): Promise<void>;
  /** The server, or null once it is gone. */
  server(serverId: number): Promise<ServerRow | null>;
  /** Watches a recorded process again when it still runs; null when it is gone. */
  reattach(row: ProcessRow): ProcessHandle | null;
  /** A game found running, in the supervisor's care again: its exit handled, its watchers told, its entry in the trail. */
  takeBack(server: ServerRow, handle: ProcessHandle): Promise<void>;
  /** A game taken back goes on: its readiness probe while it is starting, its headless clients. */
  resume(server: ServerRow, handle: ProcessHandle, headless: ProcessRow[]): Promise<void>;
  /** Headless clients left without their game: gone, their rows say so. */
  endHeadless(serverId: number, headless: ProcessRow[]): Promise<void>;
  /** The server and its game's process row come to rest stopped, in one transaction. */
  settle(serverId: number, status: 'stopped'): Promise<void>;
  /** Only the game's process row comes to rest (the server's record already is). */
  endGame(serverId: number, status: 'crashed'): Promise<void>;
  /**
   * A game that died while the service was down: a crash like any other, found late: the server and its
   * game's process row marked crashed with its entry, in one transaction; then its auto-restart.
   */
  crashedWhileDown(server: ServerRow): Promise<void>;
}

/**
 * At service start: this instance's processes (and none of another's) are re-adopted when the recorded
 * pid still runs the recorded executable and is the same process (same kernel start time); a server
 * whose game is gone is marked crashed (audit `crashed`, `found_at_start`), and auto-restart applies to it. Headless clients
 * are adopted with their running server, and ended with one that is gone.
 */
export async function adoptAll(host: AdoptionHost): Promise<void> {
  for (const [serverId, processes] of await host.adoptable()) {
    await host
      .underLock(serverId, () => adoptServer(host, serverId, processes))
      .catch((err) => host.logger.error({ serverId, err }, 'adoption failed'));
  }
}

async function adoptServer(host: AdoptionHost, serverId: number, processes: ProcessRow[]): Promise<void> {
  const server = await host.server(serverId);
  if (!server) return;
  const game = processes.find((p) => p.role === 'server');
  const headless = processes.filter((p) => p.role === 'headless');
  const active = ACTIVE_STATUSES.includes(server.status);
  const handle = active && game ? host.reattach(game) : null;
  if (handle) {
    await host.takeBack(server, handle);
    if (server.status !== 'stopping') return host.resume(server, handle, headless);
    // The stop was cut short by the service's own stop: finish it.
    for (const row of headless) host.reattach(row)?.signal('SIGKILL');
    await handle.kill();
    return host.settle(serverId, 'stopped');
  }
  // No game of this instance's runs for it: its headless clients go too.
  await host.endHeadless(serverId, headless);
  if (!active) return game ? host.endGame(serverId, 'crashed') : undefined;
  if (server.status === 'stopping') return host.settle(serverId, 'stopped');
  host.logger.warn({ serverId, pid: server.pid }, 'a game recorded as running died while the service was down');
  await host.crashedWhileDown(server);
}
