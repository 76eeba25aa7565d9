import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, open, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { Mutex } from 'async-mutex';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, ApiError, IDLE_STATUSES, type ConfigValues } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Models } from '../db/models/index.js';
import type { ServerModel } from '../db/models/ServerModel.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import { ServerService } from '../servers/service.js';
import { serverContext, serverDir } from '../servers/context.js';
import { ConfigService } from '../config/service.js';
import { RemoteAdminService } from '../rcon/service.js';
import { AuditService } from '../audit/service.js';
import { assertHostPortsFree } from './host-ports.js';
import { OUTPUT_FILE } from './output.js';
import { isSameProcess, processStartTime, runsExecutable, signalGroup } from './process-table.js';

const OUTPUT_ROTATE_BYTES = 16 * 1024 * 1024;
/** How often a process this service did not spawn (adopted after a restart) is checked for its exit. */
const ADOPTED_POLL_MS = 200;
const PROBE_INTERVAL_MS = 500;
/** How long the service's stop waits for work the supervisor began by itself (a crash, an auto-restart). */
const CLOSE_WAIT_MS = 10_000;

/** The record's fields of a process, when there is none. */
const NO_PROCESS = { pid: null, started_at: null, process_start_time: null } as const;

interface Managed {
  pid: number;
  startTime: string | null;
  child: ChildProcess | null;
  /** Set when a stop, kill or restart asked the process to go: its exit is then no crash. */
  stopRequested: boolean;
  exited: Promise<void>;
  onExit(): void;
  poll?: NodeJS.Timeout;
}

/** What else follows a game process while it runs (its log, its metrics, its players). */
export interface ProcessWatch {
  /** A process is now supervised: just spawned (its output starts at `outputOffset`), or re-adopted. */
  attached(serverId: number, process: { pid: number; adopted: boolean; outputOffset: number | null }): void;
  /** The process is `gone`, or the service stops and leaves it running (`unwatched`, to be re-adopted). */
  detached(serverId: number, why: 'gone' | 'unwatched'): void;
}

/** Who asked: a username, or null for the supervisor acting by itself. */
export type Actor = string | null;

/**
 * Starts, stops and watches game processes. Every lifecycle action on one server runs under that
 * server's lock, so there are never two processes for one server and the record never contradicts the
 * process. Games run in their own process group with their output in a file: they outlive the service,
 * which re-adopts them at its next start.
 */
@injectable()
export class Supervisor {
  private readonly locks = new Map<number, Mutex>();
  private readonly managed = new Map<number, Managed>();
  private readonly restartTimers = new Map<number, NodeJS.Timeout>();
  private readonly watches: ProcessWatch[] = [];
  private readonly background = new Set<Promise<void>>();
  private closed = false;

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  watch(watch: ProcessWatch): void {
    this.watches.push(watch);
  }

  private notify(fn: (w: ProcessWatch) => void): void {
    for (const w of this.watches) {
      try {
        fn(w);
      } catch (err) {
        this.logger.error({ err }, 'process watch failed');
      }
    }
  }

  /**
   * Work the supervisor starts by itself, outside any request: its failure is logged, never left as an
   * unhandled rejection, and the service's stop waits for it before the database closes.
   */
  private inBackground(serverId: number, what: string, task: () => Promise<void>): void {
    const run = task().catch((err) => {
      if (this.closed) this.logger.debug({ serverId, err: (err as Error).message }, `${what} cut short by the service stopping`);
      else this.logger.error({ serverId, err }, `${what} failed`);
    });
    this.background.add(run);
    void run.finally(() => this.background.delete(run));
  }

  /** Runs `fn` under the server's lifecycle lock. */
  withLock<T>(serverId: number, fn: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(serverId);
    if (!lock) this.locks.set(serverId, (lock = new Mutex()));
    return lock.runExclusive(fn);
  }

  // --- actions ------------------------------------------------------------------------------------

  start(serverId: number, actor: Actor): Promise<{ status: 'starting'; pid: number }> {
    return this.withLock(serverId, async () => {
      const result = await this.startLocked(serverId, { resetRestarts: true });
      void this.audit.record(serverId, 'start', actor, { pid: result.pid });
      return result;
    });
  }

  stop(serverId: number, actor: Actor, options: { force?: boolean; reason?: string | null } = {}): Promise<{ status: 'stopped' }> {
    return this.withLock(serverId, async () => {
      await this.stopLocked(serverId, options.force ? 'force' : 'graceful');
      void this.audit.record(serverId, 'stop', actor, { force: Boolean(options.force), reason: options.reason ?? null });
      return { status: 'stopped' as const };
    });
  }

  restart(serverId: number, actor: Actor): Promise<{ status: 'starting'; pid: number }> {
    return this.withLock(serverId, async () => {
      await this.stopLocked(serverId, 'graceful');
      const result = await this.startLocked(serverId, { resetRestarts: true });
      void this.audit.record(serverId, 'restart', actor, { pid: result.pid });
      return result;
    });
  }

  /** Kills at once: the signal goes out before waiting for the lock, which a graceful stop may hold for 30 s. */
  async kill(serverId: number, actor: Actor): Promise<{ status: 'stopped' }> {
    const row = await this.servers.row(serverId);
    if (!ACTIVE_STATUSES.includes(row.status)) throw notRunning(row);
    const process = this.managed.get(serverId);
    if (process) {
      process.stopRequested = true;
      signalGroup(process.pid, 'SIGKILL');
    }
    return this.withLock(serverId, async () => {
      const current = await this.servers.row(serverId);
      if (ACTIVE_STATUSES.includes(current.status)) await this.stopLocked(serverId, 'kill');
      void this.audit.record(serverId, 'kill', actor, { pid: process?.pid ?? row.pid });
      return { status: 'stopped' as const };
    });
  }

  // --- start --------------------------------------------------------------------------------------

  private async startLocked(serverId: number, options: { resetRestarts: boolean }): Promise<{ status: 'starting'; pid: number }> {
    this.cancelRestart(serverId);
    const row = await this.servers.row(serverId);
    if (!IDLE_STATUSES.includes(row.status)) {
      throw new ApiError('SERVER_ALREADY_RUNNING', `server ${serverId} is ${row.status}`);
    }
    const adapter = this.adapters.get(row.game_type);
    const processConfig = this.adapters.require(adapter, 'process_config');
    this.servers.assertExecutableAllowed(adapter, row.exe_path);
    await access(row.exe_path, constants.X_OK).catch(() => {
      throw new ApiError('EXE_NOT_FOUND', `the executable ${row.exe_path} does not exist or cannot be run`);
    });
    const { config, args } = await this.config.prepareLaunch(row);
    await assertHostPortsFree({ game_port: row.game_port, rcon_port: row.rcon_port });

    // Claimed in the database first: a delete racing this start finds the server no longer deletable.
    const claimed = await this.models.Server.query()
      .findById(serverId)
      .whereIn('status', IDLE_STATUSES)
      .patch({ status: 'starting', ...NO_PROCESS, ...(options.resetRestarts ? { restart_count: 0 } : {}), updated_at: now() });
    if (!claimed) throw new ApiError('SERVER_ALREADY_RUNNING', `server ${serverId} changed state meanwhile`);

    let child: ChildProcess;
    let outputOffset: number;
    try {
      ({ child, outputOffset } = await this.spawnGame(row, args));
    } catch (err) {
      await this.setStatus(serverId, { status: 'error', ...NO_PROCESS });
      void this.audit.record(serverId, 'start_failed', null, { reason: (err as Error).message });
      throw new ApiError('EXE_NOT_FOUND', `could not start ${row.exe_path}: ${(err as Error).message}`, { cause: err });
    }
    const pid = child.pid!;
    const startedAt = now();
    const managed = this.track(serverId, pid, processStartTime(pid), child);
    await this.setStatus(serverId, { status: 'starting', pid, started_at: startedAt, process_start_time: managed.startTime });
    this.notify((w) => w.attached(serverId, { pid, adopted: false, outputOffset }));
    this.inBackground(serverId, 'readiness probe', () => this.probe(serverId, managed, config));
    return { status: 'starting', pid };
  }

  private async spawnGame(row: ServerModel, args: string[]): Promise<{ child: ChildProcess; outputOffset: number }> {
    const dir = serverDir(this.settings.dataDir, row.id);
    await mkdir(dir, { recursive: true });
    const outputPath = join(dir, OUTPUT_FILE);
    const size = await stat(outputPath).then((s) => s.size, () => 0);
    const rotate = size > OUTPUT_ROTATE_BYTES;
    if (rotate) await rename(outputPath, `${outputPath}.1`);
    const output = await open(outputPath, 'a', 0o600);
    try {
      const child = spawn(row.exe_path, args, {
        cwd: serverContext(row, this.settings.dataDir).exeDir,
        detached: true, // its own process group: a signal to the service's group never reaches it
        stdio: ['ignore', output.fd, output.fd],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      return { child, outputOffset: rotate ? 0 : size };
    } finally {
      await output.close(); // the child holds its own copy of the descriptor
    }
  }

  /** Runs the adapter's readiness probe until it passes (→ running), the process exits, or the time-out (→ error). */
  private async probe(serverId: number, managed: Managed, config: ConfigValues): Promise<void> {
    const row = await this.servers.row(serverId).catch(() => null);
    if (!row) return;
    const isReady = this.adapters.get(row.game_type).capabilities.process_config?.isReady;
    const ctx = serverContext(row, this.settings.dataDir);
    const deadline = Date.now() + this.settings.readyTimeoutMs;
    let exited = false;
    void managed.exited.then(() => (exited = true));
    for (;;) {
      if (exited || this.closed || this.managed.get(serverId) !== managed) return;
      if (!isReady || (await isReady(config, ctx).catch(() => false))) break;
      if (Date.now() > deadline) {
        this.logger.warn({ serverId, pid: managed.pid }, 'readiness probe did not pass in time; killing the process');
        await this.withLock(serverId, async () => {
          if (this.managed.get(serverId) !== managed) return;
          managed.stopRequested = true;
          signalGroup(managed.pid, 'SIGKILL');
          await this.waitForExit(managed, 10_000);
          await this.setStatus(serverId, { status: 'error', ...NO_PROCESS });
          void this.audit.record(serverId, 'start_failed', null, { reason: `not ready within ${this.settings.readyTimeoutMs} ms` });
        });
        return;
      }
      await delay(PROBE_INTERVAL_MS);
    }
    await this.withLock(serverId, async () => {
      if (this.managed.get(serverId) !== managed || managed.stopRequested) return;
      const marked = await this.models.Server.query().findById(serverId).where({ status: 'starting', pid: managed.pid }).patch({ status: 'running', updated_at: now() });
      if (!marked) return;
      await this.publishStatus(serverId);
      void this.audit.record(serverId, 'running', null, { pid: managed.pid });
    });
  }

  // --- stop ---------------------------------------------------------------------------------------

  private async stopLocked(serverId: number, how: 'graceful' | 'force' | 'kill'): Promise<void> {
    this.cancelRestart(serverId);
    const row = await this.servers.row(serverId);
    if (!ACTIVE_STATUSES.includes(row.status)) throw notRunning(row);
    const process = this.managed.get(serverId);
    if (process) {
      process.stopRequested = true;
      if (how === 'graceful') {
        await this.setStatus(serverId, { status: 'stopping' });
        // A kill meanwhile ends the process before the game answers: do not wait for the answer then.
        await Promise.race([this.askToShutDown(row, process), process.exited]);
        if (!(await this.waitForExit(process, this.settings.stopTimeoutMs))) {
          this.logger.warn({ serverId, pid: process.pid }, 'the game did not stop in time; killing it');
          void this.audit.record(serverId, 'stop_timeout', null, { waited_ms: this.settings.stopTimeoutMs });
          signalGroup(process.pid, 'SIGKILL');
        }
      } else {
        signalGroup(process.pid, 'SIGKILL');
      }
      if (!(await this.waitForExit(process, 10_000))) this.logger.error({ serverId, pid: process.pid }, 'the game survived SIGKILL for 10 s');
    }
    await this.remoteAdmin.drop(serverId);
    await this.setStatus(serverId, { status: 'stopped', ...NO_PROCESS });
  }

  /** The adapter's shutdown command through remote admin; SIGTERM when there is none or it cannot be sent. */
  private async askToShutDown(row: ServerModel, process: Managed): Promise<void> {
    const command = this.adapters.get(row.game_type).capabilities.remote_admin?.shutdownCommand;
    if (command) {
      try {
        await this.remoteAdmin.command(row.id, command);
        return;
      } catch (err) {
        this.logger.info({ serverId: row.id, err: (err as Error).message }, 'shutdown through remote admin failed; sending SIGTERM');
      }
    }
    signalGroup(process.pid, 'SIGTERM');
  }

  private waitForExit(process: Managed, ms: number): Promise<boolean> {
    return settlesWithin(process.exited, ms);
  }

  // --- watching -----------------------------------------------------------------------------------

  private track(serverId: number, pid: number, startTime: string | null, child: ChildProcess | null): Managed {
    let onExit!: () => void;
    const exited = new Promise<void>((resolve) => (onExit = resolve));
    const managed: Managed = { pid, startTime, child, stopRequested: false, exited, onExit };
    this.managed.set(serverId, managed);
    if (child) {
      child.once('exit', (code, signal) => this.inBackground(serverId, 'handling an exit', () => this.exitedProcess(serverId, managed, { code, signal })));
    } else {
      // Not our child: no exit event; its pid is watched until it no longer runs the same process.
      managed.poll = setInterval(() => {
        if (!isSameProcess(pid, startTime)) this.inBackground(serverId, 'handling an exit', () => this.exitedProcess(serverId, managed, { code: null, signal: null }));
      }, ADOPTED_POLL_MS);
      managed.poll.unref();
    }
    return managed;
  }

  private async exitedProcess(serverId: number, managed: Managed, how: { code: number | null; signal: NodeJS.Signals | null }): Promise<void> {
    clearInterval(managed.poll);
    if (this.managed.get(serverId) === managed) this.managed.delete(serverId);
    managed.onExit();
    if (!this.closed) this.notify((w) => w.detached(serverId, 'gone'));
    if (managed.stopRequested || this.closed) return;
    // An exit nobody asked for: a crash. Marked only if the record still names this process.
    const crashed = await this.models.Server.query()
      .findById(serverId)
      .where('pid', managed.pid)
      .whereIn('status', ['starting', 'running'])
      .patch({ status: 'crashed', ...NO_PROCESS, updated_at: now() })
      .catch(() => 0);
    if (!crashed) return;
    this.logger.warn({ serverId, pid: managed.pid, ...how }, 'game process exited unexpectedly');
    await this.publishStatus(serverId);
    void this.audit.record(serverId, 'crashed', null, { pid: managed.pid, exit_code: how.code, signal: how.signal });
    await this.remoteAdmin.drop(serverId);
    await this.scheduleAutoRestart(serverId);
  }

  /** With auto_restart on and restarts left: start again after a back-off of 2 s, doubling, at most 60 s. */
  private async scheduleAutoRestart(serverId: number): Promise<void> {
    const row = await this.servers.row(serverId).catch(() => null);
    if (!row || !row.auto_restart || row.restart_count >= row.max_restarts || this.closed) return;
    const wait = Math.min(this.settings.restartBackoffMs * 2 ** row.restart_count, this.settings.restartBackoffMaxMs);
    this.cancelRestart(serverId);
    const timer = setTimeout(() => {
      this.restartTimers.delete(serverId);
      this.inBackground(serverId, 'auto-restart', () => this.withLock(serverId, async () => {
        const current = await this.servers.row(serverId).catch(() => null);
        if (!current || current.status !== 'crashed' || this.closed) return; // someone acted meanwhile
        const attempt = current.restart_count + 1;
        await this.models.Server.query().findById(serverId).patch({ restart_count: attempt });
        void this.audit.record(serverId, 'auto_restart', null, { attempt, max_restarts: current.max_restarts, after_ms: wait });
        try {
          await this.startLocked(serverId, { resetRestarts: false });
        } catch (err) {
          this.logger.warn({ serverId, err: (err as Error).message }, 'auto-restart failed');
          await this.setStatus(serverId, { status: 'error', ...NO_PROCESS });
          void this.audit.record(serverId, 'start_failed', null, { reason: (err as Error).message, attempt });
        }
      }));
    }, wait);
    this.restartTimers.set(serverId, timer);
  }

  private cancelRestart(serverId: number): void {
    clearTimeout(this.restartTimers.get(serverId));
    this.restartTimers.delete(serverId);
  }

  // --- service start and stop ---------------------------------------------------------------------

  /**
   * At service start: every server recorded with a process is re-adopted when its pid still runs the
   * recorded executable and is the same process (same kernel start time); the others are marked crashed,
   * and auto-restart applies to them.
   */
  async adoptAll(): Promise<void> {
    const rows = await this.models.Server.query().whereIn('status', ACTIVE_STATUSES);
    for (const row of rows) {
      await this.withLock(row.id, async () => {
        const alive = row.pid !== null && isSameProcess(row.pid, row.process_start_time) && runsExecutable(row.pid, row.exe_path);
        if (alive) {
          const managed = this.track(row.id, row.pid!, row.process_start_time, null);
          this.notify((w) => w.attached(row.id, { pid: row.pid!, adopted: true, outputOffset: null }));
          this.logger.info({ serverId: row.id, pid: row.pid }, 're-adopted a running game');
          void this.audit.record(row.id, 'adopted', null, { pid: row.pid, status: row.status });
          if (row.status === 'stopping') {
            // The stop was cut short by the service's own stop: finish it.
            managed.stopRequested = true;
            signalGroup(row.pid!, 'SIGKILL');
            await this.waitForExit(managed, 10_000);
            await this.setStatus(row.id, { status: 'stopped', ...NO_PROCESS });
          } else if (row.status === 'starting') {
            const config = await this.config.effectiveConfig(row);
            this.inBackground(row.id, 'readiness probe', () => this.probe(row.id, managed, config));
          }
          return;
        }
        const stopping = row.status === 'stopping';
        await this.setStatus(row.id, { status: stopping ? 'stopped' : 'crashed', ...NO_PROCESS });
        if (stopping) return;
        this.logger.warn({ serverId: row.id, pid: row.pid }, 'a game recorded as running is gone');
        void this.audit.record(row.id, 'lost', null, { pid: row.pid });
        await this.scheduleAutoRestart(row.id);
      });
    }
  }

  /**
   * At service stop: lets what is under way settle, then stops watching; the games keep running, to be
   * re-adopted at the next start.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.restartTimers.values()) clearTimeout(timer);
    this.restartTimers.clear();
    if (!(await settlesWithin(Promise.all(this.background), CLOSE_WAIT_MS))) this.logger.warn({ pending: this.background.size }, 'stopping while supervision work is still under way');
    for (const [serverId, managed] of this.managed) {
      clearInterval(managed.poll);
      managed.child?.removeAllListeners('exit');
      managed.onExit();
      this.notify((w) => w.detached(serverId, 'unwatched'));
    }
    this.managed.clear();
  }

  // --- records ------------------------------------------------------------------------------------

  private async setStatus(serverId: number, patch: Partial<Pick<ServerModel, 'status' | 'pid' | 'started_at' | 'process_start_time'>>): Promise<void> {
    await this.models.Server.query().findById(serverId).patch({ ...patch, updated_at: now() });
    await this.publishStatus(serverId);
  }

  private async publishStatus(serverId: number): Promise<void> {
    const row = await this.models.Server.query().findById(serverId);
    if (!row) return;
    this.events.publish({ type: 'server_status', server_id: serverId, data: { status: row.status, pid: row.pid, started_at: row.started_at } });
  }
}

const now = () => new Date().toISOString();

function notRunning(row: ServerModel): ApiError {
  return new ApiError('SERVER_NOT_RUNNING', `server ${row.id} is ${row.status}`);
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([promise.then(() => true as const, () => true as const), timedOut]);
  clearTimeout(timer);
  return done;
}
