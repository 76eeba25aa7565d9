import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { enabledModsOf, SYSTEM_ACTOR, type ConfigValues, type ServerStatus, ifApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { SupervisorSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { ProcessKey, ProcessRow, ServerRow } from '../db/repositories/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import type { JobRunner } from '../jobs/runner.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { AuditService } from '../audit/service.js';
import { ServerService } from '../servers/service.js';
import { serverContext, serverDir } from '../servers/context.js';
import { ProcessService } from '../processes/service.js';
import type { Exit, ProcessHandle } from '../processes/handle.js';
import { OUTPUT_FILE } from '../processes/output.js';
import { restartBackoffMs } from './auto-restart.js';

const keyOf = (serverId: number, index: number): ProcessKey => ({ server_id: serverId, role: 'headless', idx: index });
const RESTART_PREFIX = 'headless.restart:';

/**
 * A server's headless clients: started once the server is running, each restarted on its own when it
 * crashes (back-off as the server's, up to the server's `max_restarts`) without touching the server,
 * stopped before it, and re-adopted with it. Each has its own folder (profile, log, output) under the
 * server's. Every change is a `process_status` event; crashes, restarts and giving up are in the audit.
 */
@injectable()
export class HeadlessClients {
  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: SupervisorSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ProcessService) private readonly processes: ProcessService,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** Starts the server's headless clients (the server is running); rows of clients it no longer has go. */
  async startAll(server: ServerRow, config: ConfigValues): Promise<void> {
    await this.processes.dropAbove(server.id, 'headless', server.headless_clients);
    for (let index = 1; index <= server.headless_clients; index += 1) await this.spawn(server, config, index, 0);
  }

  private async spawn(server: ServerRow, config: ConfigValues, index: number, restartCount: number): Promise<void> {
    const key = keyOf(server.id, index);
    const processConfig = this.adapters.get(server.game_type).capabilities.process_config;
    if (!processConfig?.headlessArguments) return;
    const ctx = serverContext(server, this.settings.dataDir);
    const folder = join(serverDir(this.settings.dataDir, server.id), 'headless', String(index));
    const modsAt = this.adapters.get(server.game_type).capabilities.mod_manager?.enabled;
    const mods = modsAt ? enabledModsOf(config[modsAt.section]?.[modsAt.field]) : [];
    try {
      const args = processConfig.headlessArguments(config, ctx, { index, profileDir: folder, mods });
      const { handle } = await this.processes.spawn(
        key,
        { executable: server.exe_path, args, cwd: ctx.exeDir, outputPath: join(folder, OUTPUT_FILE) },
        restartCount,
      );
      this.follow(server.id, index, handle, config);
      await this.processes.record(key, { status: 'running' });
      this.publish(server.id, index, 'running', handle.pid, restartCount, null, isoNow(this.clock));
    } catch (err) {
      this.logger.warn({ serverId: server.id, index, err: (err as Error).message }, 'headless client did not start');
      await this.audit.recordAlone({
        serverId: server.id,
        type: 'headless_gave_up',
        actor: SYSTEM_ACTOR,
        detail: { index, reason: (err as Error).message },
      });
      this.publish(server.id, index, 'error', null, restartCount, 'spawn_failed');
    }
  }

  /** Watches a client found running at the service's start; one that is gone is handled as a crash. */
  async adopt(row: ProcessRow, config: ConfigValues): Promise<void> {
    const handle = this.processes.adopt(row);
    if (handle) {
      this.follow(row.server_id, row.idx, handle, config);
      return;
    }
    await this.crashed(row.server_id, row.idx, row.restart_count, { code: null, signal: null }, config);
  }

  private follow(serverId: number, index: number, handle: ProcessHandle, config: ConfigValues): void {
    handle.onExit((exit) => {
      if (this.processes.handle(keyOf(serverId, index)) !== handle || handle.stopRequested) return;
      void this.processes
        .rows(serverId)
        .then((rows) =>
          this.crashed(serverId, index, rows.find((r) => r.role === 'headless' && r.idx === index)?.restart_count ?? 0, exit, config),
        )
        .catch((err) => this.logger.error({ serverId, index, err }, 'handling a headless client exit failed'));
    });
  }

  /** A client exited by itself: restarted after a back-off while the server runs and restarts are left. */
  private async crashed(serverId: number, index: number, restartCount: number, exit: Exit, config: ConfigValues): Promise<void> {
    const key = keyOf(serverId, index);
    await this.processes.record(key, { status: 'crashed', pid: null });
    const server = await this.servers.row(serverId).catch(ifApiError('NOT_FOUND', null)); // deleted meanwhile
    const left = server !== null && server.status === 'running' && restartCount < server.max_restarts;
    this.logger.warn({ serverId, index, ...exit }, 'headless client exited unexpectedly');
    await this.audit.recordAlone({
      serverId,
      type: 'headless_crashed',
      actor: SYSTEM_ACTOR,
      detail: { index, exit_code: exit.code, signal: exit.signal, restart_count: restartCount },
    });
    if (!server || !left) {
      this.publish(serverId, index, 'crashed', null, restartCount, 'gave_up');
      if (server)
        await this.audit.recordAlone({
          serverId,
          type: 'headless_gave_up',
          actor: SYSTEM_ACTOR,
          detail: { index, restart_count: restartCount, max_restarts: server.max_restarts },
        });
      return;
    }
    this.publish(serverId, index, 'crashed', null, restartCount, 'crashed');
    const wait = restartBackoffMs(this.settings, restartCount);
    this.jobs.after(`${RESTART_PREFIX}${serverId}:${index}`, wait, async () => {
      const current = await this.servers.row(serverId).catch(ifApiError('NOT_FOUND', null));
      if (!current || current.status !== 'running' || this.processes.handle(key)) return; // the server stopped meanwhile
      await this.audit.recordAlone({
        serverId,
        type: 'headless_restarted',
        actor: SYSTEM_ACTOR,
        detail: { index, attempt: restartCount + 1, max_restarts: current.max_restarts, after_ms: wait },
      });
      await this.spawn(current, config, index, restartCount + 1);
    });
  }

  /** Stops every client of the server (before the server itself): asked to end, or killed. */
  async stopAll(serverId: number, how: 'graceful' | 'kill'): Promise<void> {
    this.jobs.cancelAll(`${RESTART_PREFIX}${serverId}:`);
    const rows = (await this.processes.rows(serverId)).filter((r) => r.role === 'headless');
    await Promise.all(rows.map((row) => this.stopOne(serverId, row, how)));
  }

  private async stopOne(serverId: number, row: ProcessRow, how: 'graceful' | 'kill'): Promise<void> {
    const key = keyOf(serverId, row.idx);
    const handle = this.processes.handle(key);
    if (handle) await (how === 'graceful' ? handle.end(this.settings.stopTimeoutMs) : handle.kill());
    if (row.status === 'stopped' && !handle) return;
    await this.processes.record(key, { status: 'stopped', pid: null });
    this.publish(serverId, row.idx, 'stopped', null, row.restart_count, null);
  }

  /** Kills at once, before any lock: a kill of the server takes its clients with it. */
  killNow(serverId: number, count: number): void {
    for (let index = 1; index <= count; index += 1) void this.processes.handle(keyOf(serverId, index))?.kill();
  }

  private publish(
    serverId: number,
    index: number,
    status: ServerStatus,
    pid: number | null,
    restartCount: number,
    reason: string | null,
    startedAt: string | null = null,
  ): void {
    this.events.publish({
      type: 'process_status',
      server_id: serverId,
      data: { role: 'headless', index, status, pid, started_at: startedAt, restart_count: restartCount, reason },
    });
  }

  /** The service stops: no restart is left pending (the clients run on, to be adopted). */
  stop(): void {
    this.jobs.cancelAll(RESTART_PREFIX);
  }
}
