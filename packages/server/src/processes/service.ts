import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type ProcessInfo } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, ProcessKey, ProcessRow } from '../db/repositories/index.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import type { JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ProcessHandle, type SpawnSpec } from './handle.js';
import { cpuPercentBetween, processUsage } from './proc.js';

const nameOf = (key: ProcessKey) => `${key.server_id}:${key.role}:${key.idx}`;
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The processes this instance runs, each a handle in memory and a row of the processes table that names
 * this instance as its owner: at the next start, this instance re-adopts its own rows and no other's.
 * What a process is for (a server, a headless client) is for its owner to know; this only runs them.
 */
@injectable()
export class ProcessService implements Lifecycle {
  private readonly handles = new Map<string, ProcessHandle>();
  /** The last CPU reading of each process, for the CPU share since then. */
  private readonly readings = new Map<string, { ticks: number; at: number }>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.NodeId) readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  handle(key: ProcessKey): ProcessHandle | undefined {
    return this.handles.get(nameOf(key));
  }

  /**
   * Records the process as this instance's, `starting`, then spawns it: a row is there before the process
   * is, so that a service cut off in between finds it at its next start. A failed spawn is recorded as `error`.
   */
  async spawn(key: ProcessKey, spec: Omit<SpawnSpec, 'name'>, restartCount = 0): Promise<{ handle: ProcessHandle; outputOffset: number }> {
    const now = isoNow(this.clock);
    await this.repos.processes.put(key, {
      node_id: this.nodeId,
      status: 'starting',
      pid: null,
      start_time: null,
      executable: spec.executable,
      restart_count: restartCount,
      started_at: now,
      updated_at: now,
    });
    let spawned: { handle: ProcessHandle; outputOffset: number };
    try {
      spawned = await ProcessHandle.spawn({ ...spec, name: nameOf(key) }, this.clock);
    } catch (err) {
      await this.record(key, { status: 'error', pid: null });
      throw err;
    }
    const { handle } = spawned;
    this.handles.set(nameOf(key), handle);
    this.readings.delete(nameOf(key));
    await this.repos.processes.update(key, { pid: handle.pid, start_time: handle.startTime, updated_at: isoNow(this.clock) });
    return spawned;
  }

  /** The processes of this role of the server that this instance runs now, by index. */
  running(serverId: number, role: ProcessKey['role']): { index: number; pid: number }[] {
    const prefix = `${serverId}:${role}:`;
    return [...this.handles]
      .filter(([name]) => name.startsWith(prefix))
      .map(([name, handle]) => ({ index: Number(name.slice(prefix.length)), pid: handle.pid }));
  }

  /** The state of a process changed (its row follows); a process that is gone is forgotten here. */
  async record(key: ProcessKey, patch: Partial<Pick<ProcessRow, 'status' | 'pid' | 'restart_count' | 'started_at'>>): Promise<void> {
    if (patch.pid === null) this.forget(key);
    await this.repos.processes.update(key, {
      ...patch,
      ...(patch.pid === null ? { start_time: null } : {}),
      updated_at: isoNow(this.clock),
    });
  }

  forget(key: ProcessKey): void {
    this.handles.delete(nameOf(key));
    this.readings.delete(nameOf(key));
  }

  /** This instance's processes that may still run (and unowned ones left by an older version), claimed for it. */
  claim(): Promise<ProcessRow[]> {
    return this.repos.processes.claimForAdoption(this.nodeId);
  }

  /** Watches the recorded process again when it still runs; null when it is gone. */
  adopt(row: ProcessRow): ProcessHandle | null {
    if (row.pid === null) return null;
    const handle = ProcessHandle.adopt(
      { name: nameOf(row), pid: row.pid, startTime: row.start_time, executable: row.executable },
      this.clock,
      this.jobs,
      ({ pid, why }) => {
        if (why === null) this.logger.info({ pid, server_id: row.server_id, role: row.role }, 'the process table is readable again');
        else
          this.logger.warn(
            { pid, server_id: row.server_id, role: row.role, why },
            'could not read the process table: the process is taken as still running, and looked at again',
          );
      },
    );
    if (handle) this.handles.set(nameOf(row), handle);
    return handle;
  }

  rows(serverId: number): Promise<ProcessRow[]> {
    return this.repos.processes.forServer(serverId);
  }

  /** Rows of roles and indexes past what the server has now (fewer headless clients than before). */
  dropAbove(serverId: number, role: ProcessRow['role'], count: number): Promise<void> {
    return this.repos.processes.dropAbove(serverId, role, count);
  }

  /** The server's processes with their CPU share (since the last look, or over their life) and memory. */
  async list(serverId: number): Promise<ProcessInfo[]> {
    if (!(await this.repos.servers.find(serverId))) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
    return (await this.repos.processes.forServer(serverId)).map((row) => ({
      role: row.role,
      index: row.idx,
      pid: row.pid,
      status: row.status,
      started_at: row.started_at,
      restart_count: row.restart_count,
      ...this.usage(row),
    }));
  }

  private usage(row: ProcessRow): { cpu_percent: number | null; ram_mb: number | null } {
    const usage = row.pid !== null && this.handles.has(nameOf(row)) ? processUsage(row.pid) : null;
    if (!usage) return { cpu_percent: null, ram_mb: null };
    const now = this.clock.now();
    const last = this.readings.get(nameOf(row)) ?? { ticks: 0, at: row.started_at ? Date.parse(row.started_at) : now };
    this.readings.set(nameOf(row), { ticks: usage.ticks, at: now });
    const cpu = cpuPercentBetween(last, { ticks: usage.ticks, at: now });
    return { cpu_percent: round(cpu), ram_mb: round(usage.rssBytes / 1024 / 1024) };
  }

  /** The service stops: every process is let go, still running, for the next start to adopt. */
  stop(): void {
    for (const handle of this.handles.values()) handle.release();
    this.handles.clear();
  }
}
