import { ACTIVE_STATUSES, SYSTEM_ACTOR, ifApiError } from '@garrison/core';
import type { ProcessRow } from '../db/repositories/index.js';
import { NO_PROCESS } from './status.js';
import { serverKey, type Supervisor } from './supervisor.js';

/**
 * At service start: this instance's processes (and none of another's) are re-adopted when the recorded
 * pid still runs the recorded executable and is the same process (same kernel start time); a server
 * whose game is gone is marked crashed (audit `crashed`, `found_at_start`), and auto-restart applies to it. Headless clients
 * are adopted with their running server, and ended with one that is gone.
 */
export async function adoptAll(sup: Supervisor): Promise<void> {
  const rows = await sup.processes.claim();
  const servers = new Map<number, ProcessRow[]>();
  for (const row of rows) servers.set(row.server_id, [...(servers.get(row.server_id) ?? []), row]);
  for (const server of await sup.servers.activeWithoutProcess()) servers.set(server.id, servers.get(server.id) ?? []);
  for (const [serverId, processes] of servers) await sup.locks.run(serverId, () => adoptServer(sup, serverId, processes)).catch((err) => sup.logger.error({ serverId, err }, 'adoption failed'));
}

async function adoptServer(sup: Supervisor, serverId: number, processes: ProcessRow[]): Promise<void> {
  const server = await sup.servers.row(serverId).catch(ifApiError('NOT_FOUND', null)); // deleted meanwhile
  if (!server) return;
  const game = processes.find((p) => p.role === 'server');
  const headless = processes.filter((p) => p.role === 'headless');
  const active = ACTIVE_STATUSES.includes(server.status);
  const handle = active && game ? sup.processes.adopt(game) : null;
  if (handle) {
    sup.follow(serverId, handle);
    sup.attach(serverId, { pid: handle.pid, adopted: true, outputOffset: null });
    sup.logger.info({ serverId, pid: handle.pid }, 're-adopted a running game');
    await sup.audit.record(serverId, 'adopted', SYSTEM_ACTOR, { pid: handle.pid, status: server.status });
    if (server.status === 'stopping') {
      // The stop was cut short by the service's own stop: finish it.
      for (const row of headless) sup.processes.adopt(row)?.signal('SIGKILL');
      await handle.kill();
      await sup.processes.record(serverKey(serverId), { status: 'stopped', pid: null });
      await sup.states.set(serverId, { status: 'stopped', ...NO_PROCESS });
      return;
    }
    const config = await sup.config.effectiveConfig(server);
    if (server.status === 'starting') sup.background.run(serverId, 'readiness probe', () => sup.probe(serverId, handle, config));
    for (const row of headless) await sup.headless.adopt(row, config);
    return;
  }
  // No game of this instance's runs for it: its headless clients go too.
  for (const row of headless) {
    sup.processes.adopt(row)?.signal('SIGKILL');
    await sup.processes.record({ server_id: serverId, role: 'headless', idx: row.idx }, { status: 'stopped', pid: null });
  }
  if (game) await sup.processes.record(serverKey(serverId), { status: server.status === 'stopping' ? 'stopped' : 'crashed', pid: null });
  if (!active) return;
  const stopping = server.status === 'stopping';
  await sup.states.set(serverId, { status: stopping ? 'stopped' : 'crashed', ...NO_PROCESS });
  if (stopping) return;
  sup.logger.warn({ serverId, pid: server.pid }, 'a game recorded as running died while the service was down');
  // A crash like any other (its webhook, its entry), only noticed late: when is the time it was found.
  // Recorded before the auto-restart is planned, so that the trail and the webhooks have it first.
  await sup.audit.record(serverId, 'crashed', SYSTEM_ACTOR, { pid: server.pid, exit_code: null, signal: null, found_at_start: true, found_at: sup.now() });
  await sup.scheduleAutoRestart(serverId);
}
