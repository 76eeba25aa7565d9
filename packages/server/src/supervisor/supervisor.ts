import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, ApiError, IDLE_STATUSES, SYSTEM_ACTOR, type Actor, errnoOf } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { SupervisorSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { ServerRow } from '../db/repositories/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { Clock } from '../jobs/clock.js';
import { ServerService } from '../servers/service.js';
import { ServerLocks } from '../servers/locks.js';
import { serverContext, serverDir } from '../servers/context.js';
import { ConfigService } from '../config/service.js';
import { RemoteAdminService } from '../rcon/service.js';
import { AuditService } from '../audit/service.js';
import { ProcessService } from '../processes/service.js';
import type { Exit, ProcessHandle } from '../processes/handle.js';
import { OUTPUT_FILE } from '../processes/output.js';
import { assertHostPortsFree } from './host-ports.js';
import { ProcessWatchers, type ProcessWatch } from './watchers.js';
import { HeadlessClients } from './headless.js';
import { ended, serverKey, ServerStates, type TransitionEntry } from './status.js';
import { Background } from './background.js';
import type { AdoptionHost } from './adoption.js';
import { SupervisorAdoption } from './adoption-host.js';
import { AutoRestarts } from './auto-restart.js';
import { ReadinessProbe } from './readiness.js';

/**
 * The server state machine: start, stop, restart and kill, the readiness probe (readiness.ts), crashes
 * and the auto-restart, over the process handles of ProcessService. Every action on one server runs under its
 * lock, so there are never two processes for one server and the record never contradicts the process.
 */
@injectable()
export class Supervisor {
  private readonly launchSteps: ((serverId: number) => Promise<void>)[] = [];
  private readonly folderSteps: ((serverId: number) => Promise<void>)[] = [];
  private readonly attached = new Set<number>();
  private readonly background: Background;
  /** What the start's re-adoption of running games may do (adoptAll). */
  readonly adoption: AdoptionHost;
  private closed = false;

  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: SupervisorSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(ProcessService) private readonly processes: ProcessService,
    @inject(ProcessWatchers) private readonly watchers: ProcessWatchers,
    @inject(HeadlessClients) private readonly headless: HeadlessClients,
    @inject(ServerStates) private readonly states: ServerStates,
    @inject(AutoRestarts) private readonly restarts: AutoRestarts,
    @inject(ReadinessProbe) private readonly readiness: ReadinessProbe,
  ) {
    this.background = new Background(logger, clock, () => this.closed);
    this.adoption = new SupervisorAdoption(
      { logger, clock, servers, locks, config, audit, processes, headless, states },
      {
        watch: (serverId, handle) => {
          this.follow(serverId, handle);
          this.attach(serverId, { pid: handle.pid, adopted: true, outputOffset: null });
        },
        probe: (serverId, handle, config) =>
          this.background.run(serverId, 'readiness probe', () => this.readiness.run(serverId, handle, config)),
        scheduleAutoRestart: (serverId) => this.scheduleAutoRestart(serverId),
      },
    );
  }

  /** Work to finish before each game process is spawned (files the game reads at launch); it must not throw. */
  beforeLaunch(step: (serverId: number) => Promise<void>): void {
    this.launchSteps.push(step);
  }

  /** Work on the server's folders before its config files are written into them (under the server's lock); a throw fails the start. */
  beforeFiles(step: (serverId: number) => Promise<void>): void {
    this.folderSteps.push(step);
  }

  // --- actions ------------------------------------------------------------------------------------

  start(serverId: number, actor: Actor): Promise<{ status: 'starting'; pid: number }> {
    return this.locks.run(serverId, async () => {
      const result = await this.startLocked(serverId, { resetRestarts: true });
      await this.audit.recordAlone({ serverId, type: 'start', actor, detail: { pid: result.pid } });
      return result;
    });
  }

  stop(serverId: number, actor: Actor, options: { force?: boolean; reason?: string | null } = {}): Promise<{ status: 'stopped' }> {
    return this.locks.run(serverId, async () => {
      const entry = { type: 'stop', actor, detail: { force: Boolean(options.force), reason: options.reason ?? null } } as const;
      await this.stopLocked(serverId, options.force ? 'force' : 'graceful', entry);
      return { status: 'stopped' as const };
    });
  }

  restart(serverId: number, actor: Actor): Promise<{ status: 'starting'; pid: number }> {
    return this.locks.run(serverId, async () => {
      await this.stopLocked(serverId, 'graceful');
      const result = await this.startLocked(serverId, { resetRestarts: true });
      await this.audit.recordAlone({ serverId, type: 'restart', actor, detail: { pid: result.pid } });
      return result;
    });
  }

  /** Kills at once: the signal goes out before waiting for the lock, which a graceful stop may hold for 30 s. */
  async kill(serverId: number, actor: Actor): Promise<{ status: 'stopped' }> {
    const row = await this.servers.row(serverId);
    if (!ACTIVE_STATUSES.includes(row.status)) throw notRunning(row);
    const process = this.processes.handle(serverKey(serverId));
    this.headless.killNow(serverId, row.headless_clients);
    void process?.kill();
    return this.locks.run(serverId, async () => {
      const entry = { type: 'kill', actor, detail: { pid: process?.pid ?? row.pid } } as const;
      const current = await this.servers.row(serverId);
      // Stopped meanwhile (by the exit of the process killed): the kill is still the actor's, its entry alone.
      if (ACTIVE_STATUSES.includes(current.status)) await this.stopLocked(serverId, 'kill', entry);
      else await this.audit.recordAlone({ serverId, ...entry });
      return { status: 'stopped' as const };
    });
  }

  // --- start --------------------------------------------------------------------------------------

  private async startLocked(serverId: number, options: { resetRestarts: boolean }): Promise<{ status: 'starting'; pid: number }> {
    this.restarts.cancel(serverId);
    const row = await this.servers.row(serverId);
    if (!IDLE_STATUSES.includes(row.status)) throw new ApiError('SERVER_ALREADY_RUNNING', `server ${serverId} is ${row.status}`);
    const adapter = this.adapters.get(row.game_type);
    this.adapters.require(adapter, 'process_config');
    this.servers.assertExecutableAllowed(adapter, row.exe_path);
    await access(row.exe_path, constants.X_OK).catch((err: unknown) => {
      if (!['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'ELOOP'].includes(errnoOf(err) ?? '')) throw err;
      throw new ApiError('EXE_NOT_FOUND', `the executable ${row.exe_path} does not exist or cannot be run`, { cause: err });
    });
    for (const step of this.folderSteps) await step(serverId);
    const { config, args, configVersion } = await this.config.prepareLaunch(row);
    for (const step of this.launchSteps) await step(serverId);
    await assertHostPortsFree({ game_port: row.game_port, rcon_port: row.rcon_port });

    // Claimed in the database first: a delete racing this start finds the server no longer deletable.
    const claim = {
      status: 'starting',
      started_config_version: configVersion,
      current_mission: null,
      ...(options.resetRestarts ? { restart_count: 0 } : {}),
    } as const;
    const claimed = await this.states.transition(serverId, { from: IDLE_STATUSES }, claim, { announce: false });
    if (!claimed) throw new ApiError('SERVER_ALREADY_RUNNING', `server ${serverId} changed state meanwhile`);

    let spawned: { handle: ProcessHandle; outputOffset: number };
    try {
      const outputPath = join(serverDir(this.settings.dataDir, serverId), OUTPUT_FILE);
      spawned = await this.processes.spawn(serverKey(serverId), {
        executable: row.exe_path,
        args,
        cwd: serverContext(row, this.settings.dataDir).exeDir,
        outputPath,
      });
    } catch (err) {
      await this.states.set(serverId, ended('error'), {
        type: 'start_failed',
        actor: SYSTEM_ACTOR,
        detail: { reason: (err as Error).message },
      });
      throw new ApiError('EXE_NOT_FOUND', `could not start ${row.exe_path}: ${(err as Error).message}`, { cause: err });
    }
    const { handle, outputOffset } = spawned;
    this.follow(serverId, handle);
    // The process row has its pid now (ProcessService wrote it): the start is announced with it.
    await this.states.publish(serverId);
    this.attach(serverId, { pid: handle.pid, adopted: false, outputOffset });
    this.background.run(serverId, 'readiness probe', () => this.readiness.run(serverId, handle, config));
    return { status: 'starting', pid: handle.pid };
  }
  // --- stop ---------------------------------------------------------------------------------------

  /** `entry`: the action's audit entry, written with the server's coming to rest as stopped. */
  private async stopLocked(serverId: number, how: 'graceful' | 'force' | 'kill', entry?: TransitionEntry): Promise<void> {
    this.restarts.cancel(serverId);
    const row = await this.servers.row(serverId);
    if (!ACTIVE_STATUSES.includes(row.status)) throw notRunning(row);
    const process = this.processes.handle(serverKey(serverId));
    if (how === 'graceful' && process) await this.states.set(serverId, { status: 'stopping' });
    // The headless clients go first: they would only lose the server under them.
    await this.headless.stopAll(serverId, how === 'graceful' ? 'graceful' : 'kill');
    if (process) {
      if (how === 'graceful' && !(await process.end(this.settings.stopTimeoutMs, () => this.askToShutDown(row, process)))) {
        this.logger.warn({ serverId, pid: process.pid }, 'the game did not stop in time; it was killed');
        await this.audit.recordAlone({
          serverId,
          type: 'stop_timeout',
          actor: SYSTEM_ACTOR,
          detail: { waited_ms: this.settings.stopTimeoutMs },
        });
      } else if (how !== 'graceful') {
        await process.kill();
      }
      if (!process.gone) this.logger.error({ serverId, pid: process.pid }, 'the game survived SIGKILL for 10 s');
    }
    await this.remoteAdmin.drop(serverId);
    await this.states.set(serverId, ended('stopped'), entry);
  }

  /** The adapter's shutdown through remote admin; SIGTERM when it has none or it cannot be sent. */
  private async askToShutDown(row: ServerRow, process: ProcessHandle): Promise<void> {
    const remote = this.adapters.get(row.game_type).capabilities.remote_admin;
    if (remote?.shutdown) {
      try {
        await remote.shutdown(this.remoteAdmin.run(row.id));
        return;
      } catch (err) {
        this.logger.info({ serverId: row.id, err: (err as Error).message }, 'shutdown through remote admin failed; sending SIGTERM');
      }
    }
    process.signal('SIGTERM');
  }

  // --- watching -----------------------------------------------------------------------------------

  /** What follows the game process: the watchers, and the handling of its exit. */
  private follow(serverId: number, handle: ProcessHandle): void {
    handle.onExit((exit) => this.background.run(serverId, 'handling an exit', () => this.exited(serverId, handle, exit)));
  }

  private attach(serverId: number, process: { pid: number; adopted: boolean; outputOffset: number | null }): void {
    this.attached.add(serverId);
    this.tell((w) => w.attached(serverId, process));
  }

  private tell(fn: (w: ProcessWatch) => void): void {
    this.watchers.notify(fn, (name, err) => this.logger.error({ err, watcher: name }, 'process watch failed'));
  }

  private async exited(serverId: number, handle: ProcessHandle, exit: Exit): Promise<void> {
    if (this.processes.handle(serverKey(serverId)) === handle) this.processes.forget(serverKey(serverId));
    if (this.attached.delete(serverId) && !this.closed) this.tell((w) => w.detached(serverId, 'gone'));
    if (handle.stopRequested || this.closed) return;
    // An exit nobody asked for: a crash. Marked (with its entry) only if the process row still names this process.
    const crash = { type: 'crashed', actor: SYSTEM_ACTOR, detail: { pid: handle.pid, exit_code: exit.code, signal: exit.signal } } as const;
    if (!(await this.states.transition(serverId, { from: ['starting', 'running'], pid: handle.pid }, ended('crashed'), { entry: crash })))
      return;
    this.logger.warn({ serverId, pid: handle.pid, ...exit }, 'game process exited unexpectedly');
    await this.headless.stopAll(serverId, 'kill');
    await this.remoteAdmin.drop(serverId);
    await this.scheduleAutoRestart(serverId);
  }

  /** With auto_restart on and restarts left: started again after its back-off (AutoRestarts). */
  private scheduleAutoRestart(serverId: number): Promise<void> {
    return this.restarts.schedule(serverId, () => this.startLocked(serverId, { resetRestarts: false }));
  }

  /** At the service's stop: what is under way settles, the watchers let go; the games keep running. */
  async close(): Promise<void> {
    this.closed = true;
    this.readiness.stop();
    this.states.stop();
    await this.restarts.stop();
    this.headless.stop();
    await this.background.settle();
    for (const serverId of this.attached) this.tell((w) => w.detached(serverId, 'unwatched'));
    this.attached.clear();
  }
}

function notRunning(row: ServerRow): ApiError {
  return new ApiError('SERVER_NOT_RUNNING', `server ${row.id} is ${row.status}`);
}
