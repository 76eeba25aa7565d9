import type { Logger } from 'pino';
import { SYSTEM_ACTOR, type ConfigValues } from '@garrison/core';
import type { ProcessRow, ServerRow } from '../db/repositories/index.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import type { ServerService } from '../servers/service.js';
import type { ServerLocks } from '../servers/locks.js';
import type { ConfigService } from '../config/service.js';
import type { AuditService } from '../audit/service.js';
import type { ProcessService } from '../processes/service.js';
import type { ProcessHandle } from '../processes/handle.js';
import type { HeadlessClients } from './headless.js';
import { ended, serverKey, type ServerStates } from './status.js';
import type { AdoptionHost } from './adoption.js';

/** What only the supervisor itself does for a game it has in its care. */
export interface GameCare {
  /** Its exit handled (a crash, when nobody asked for it), its watchers told. */
  watch(serverId: number, handle: ProcessHandle): void;
  /** The readiness probe, run in the background. */
  probe(serverId: number, handle: ProcessHandle, config: ConfigValues): void;
  scheduleAutoRestart(serverId: number): Promise<void>;
}

export interface AdoptionDeps {
  logger: Logger;
  clock: Clock;
  servers: ServerService;
  locks: ServerLocks;
  config: ConfigService;
  audit: AuditService;
  processes: ProcessService;
  headless: HeadlessClients;
  states: ServerStates;
}

/** The supervisor as adoption sees it: the services it is made of, and its care of a game. */
export class SupervisorAdoption implements AdoptionHost {
  readonly logger: Logger;

  constructor(
    private readonly deps: AdoptionDeps,
    private readonly care: GameCare,
  ) {
    this.logger = deps.logger;
  }

  async adoptable(): Promise<Map<number, ProcessRow[]>> {
    const byServer = new Map<number, ProcessRow[]>();
    for (const row of await this.deps.processes.claim()) byServer.set(row.server_id, [...(byServer.get(row.server_id) ?? []), row]);
    for (const server of await this.deps.servers.activeWithoutProcess()) byServer.set(server.id, byServer.get(server.id) ?? []);
    return byServer;
  }

  underLock(serverId: number, work: () => Promise<void>): Promise<void> {
    return this.deps.locks.run(serverId, work);
  }

  server(serverId: number): Promise<ServerRow | null> {
    return this.deps.servers.find(serverId);
  }

  reattach(row: ProcessRow): ProcessHandle | null {
    return this.deps.processes.adopt(row);
  }

  async takeBack(server: ServerRow, handle: ProcessHandle): Promise<void> {
    this.care.watch(server.id, handle);
    this.logger.info({ serverId: server.id, pid: handle.pid }, 're-adopted a running game');
    await this.deps.audit.recordAlone({
      serverId: server.id,
      type: 'adopted',
      actor: SYSTEM_ACTOR,
      detail: { pid: handle.pid, status: server.status },
    });
  }

  async resume(server: ServerRow, handle: ProcessHandle, headless: ProcessRow[]): Promise<void> {
    const config = await this.deps.config.effectiveConfig(server);
    if (server.status === 'starting') this.care.probe(server.id, handle, config);
    for (const row of headless) await this.deps.headless.adopt(row, config);
  }

  async endHeadless(serverId: number, headless: ProcessRow[]): Promise<void> {
    for (const row of headless) {
      this.deps.processes.adopt(row)?.signal('SIGKILL');
      await this.deps.processes.record({ server_id: serverId, role: 'headless', idx: row.idx }, { status: 'stopped', pid: null });
    }
  }

  settle(serverId: number, status: 'stopped'): Promise<void> {
    return this.deps.states.set(serverId, ended(status));
  }

  async endGame(serverId: number, status: 'crashed'): Promise<void> {
    await this.deps.processes.record(serverKey(serverId), { status, pid: null });
  }

  async crashedWhileDown(server: ServerRow): Promise<void> {
    // A crash like any other (its webhook, its entry), only noticed late: when is the time it was found.
    // Recorded before the auto-restart is planned, so that the trail and the webhooks have it first.
    const found = { pid: server.pid, exit_code: null, signal: null, found_at_start: true, found_at: isoNow(this.deps.clock) };
    await this.deps.states.set(server.id, ended('crashed'), { type: 'crashed', actor: SYSTEM_ACTOR, detail: found });
    await this.care.scheduleAutoRestart(server.id);
  }
}
