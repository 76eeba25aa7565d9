import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, queryInstantMs, type MetricsPoint as MetricsPointSchema, type Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import { ClusterLeases } from '../cluster/leases.js';
import type { MetricsSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoAgo, type Clock } from '../jobs/clock.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ProcessWatchers, type ProcessWatch } from '../supervisor/watchers.js';
import { cpuPercentBetween, processUsage } from '../processes/proc.js';
import { ProcessService } from '../processes/service.js';
import { LiveFigures } from './live-values.js';
import { downsample, round } from './downsample.js';

const MAX_POINTS = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_JITTER_MS = 60_000;

interface Sampled {
  pid: number;
  ticks: number;
  at: number;
}

type MetricsPoint = Static<typeof MetricsPointSchema>;

/** Samples CPU and memory of every running game each `metricsIntervalMs`: into the record, the history and `metrics` events. */
@injectable()
export class MetricsService implements ProcessWatch, Lifecycle {
  private readonly watched = new Map<number, Sampled | { pid: number; ticks: null; at: number }>();
  /** The last reading of each headless client, by `server:index`. */
  private readonly headlessReadings = new Map<string, Sampled>();
  private sampler: Job | null = null;
  private pruner: Job | null = null;
  private stopWatching: (() => void) | null = null;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: MetricsSettings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(ProcessWatchers) private readonly watchers: ProcessWatchers,
    @inject(LiveFigures) private readonly live: LiveFigures,
    @inject(ClusterLeases) private readonly leases: ClusterLeases,
    @inject(ProcessService) private readonly processes: ProcessService,
  ) {}

  start(): void {
    this.stopWatching = this.watchers.add('metrics', this);
    this.pruner = this.jobs.every({ name: 'metrics.prune', everyMs: PRUNE_EVERY_MS, jitterMs: PRUNE_JITTER_MS, run: () => this.prune() });
  }

  stop(): void {
    this.stopWatching?.();
    this.sampler?.cancel();
    this.pruner?.cancel();
  }

  attached(serverId: number, process: { pid: number }): void {
    const usage = processUsage(process.pid);
    this.watched.set(serverId, { pid: process.pid, ticks: usage?.ticks ?? null, at: this.clock.now() });
    if (usage) this.live.update(serverId, { ram_mb: toMb(usage.rssBytes) });
    // Sampling runs while some game does.
    this.sampler ??= this.jobs.every({
      name: 'metrics.sample',
      everyMs: this.settings.metricsIntervalMs,
      startNow: false,
      run: () => this.sample(),
    });
  }

  detached(serverId: number): void {
    this.watched.delete(serverId);
    for (const key of this.headlessReadings.keys()) if (key.startsWith(`${serverId}:`)) this.headlessReadings.delete(key);
    this.live.clear(serverId);
    if (this.watched.size === 0) {
      this.sampler?.cancel();
      this.sampler = null;
    }
  }

  private async sample(): Promise<void> {
    const now = this.clock.now();
    const rows: ({ server_id: number } & MetricsPoint)[] = [];
    for (const [serverId, last] of this.watched) {
      const usage = processUsage(last.pid);
      if (!usage) continue;
      const cpu = last.ticks === null ? 0 : cpuPercentBetween({ ticks: last.ticks, at: last.at }, { ticks: usage.ticks, at: now });
      this.watched.set(serverId, { pid: last.pid, ticks: usage.ticks, at: now });
      const point = {
        timestamp: new Date(now).toISOString(),
        cpu_percent: round(cpu),
        ram_mb: toMb(usage.rssBytes),
        player_count: this.live.get(serverId).player_count,
      };
      this.live.update(serverId, { cpu_percent: point.cpu_percent, ram_mb: point.ram_mb });
      rows.push({ server_id: serverId, ...point });
      const headless = this.sampleHeadless(serverId, now);
      this.events.publish({ type: 'metrics', server_id: serverId, data: headless.length ? { ...point, headless } : point });
    }
    await this.repos.metrics.insert(rows).catch((err) => this.logger.warn({ err: (err as Error).message }, 'metrics not stored'));
  }

  /** CPU (since the last sample; 0 at the first) and memory of the server's running headless clients, for the Processes table. */
  private sampleHeadless(serverId: number, now: number): { index: number; pid: number; cpu_percent: number; ram_mb: number }[] {
    const out = [];
    for (const { index, pid } of this.processes.running(serverId, 'headless').sort((a, b) => a.index - b.index)) {
      const usage = processUsage(pid);
      if (!usage) continue;
      const key = `${serverId}:${index}`;
      const last = this.headlessReadings.get(key);
      const cpu = last && last.pid === pid ? cpuPercentBetween({ ticks: last.ticks, at: last.at }, { ticks: usage.ticks, at: now }) : 0;
      this.headlessReadings.set(key, { pid, ticks: usage.ticks, at: now });
      out.push({ index, pid, cpu_percent: round(cpu), ram_mb: toMb(usage.rssBytes) });
    }
    return out;
  }

  /** By one instance of a cluster. */
  private async prune(): Promise<void> {
    await this.leases.once('metrics.prune', PRUNE_EVERY_MS, () =>
      this.repos.metrics.pruneBefore(isoAgo(this.clock, this.settings.metricsRetentionHours * 3_600_000)),
    );
  }

  /** Samples from `from` (default an hour ago) to `to` (default now), one per `resolution` minutes (see downsample). */
  async history(serverId: number, query: { from?: string; to?: string; resolution?: number }): Promise<MetricsPoint[]> {
    if (!(await this.repos.servers.find(serverId))) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
    const to = query.to ? queryInstantMs(query.to, 'to') : this.clock.now();
    const from = query.from ? queryInstantMs(query.from, 'from') : to - 3_600_000;
    if (Number.isNaN(from) || Number.isNaN(to)) return [];
    const rows = await this.repos.metrics.range(serverId, new Date(from).toISOString(), new Date(to).toISOString());
    // Without a resolution, the smallest whole number of minutes that keeps the answer within MAX_POINTS.
    const minutes = query.resolution ?? (rows.length > MAX_POINTS ? Math.ceil((to - from) / 60_000 / MAX_POINTS) : 0);
    if (!minutes) return rows;
    return downsample(rows, minutes);
  }
}

const toMb = (bytes: number) => round(bytes / 1024 / 1024);
