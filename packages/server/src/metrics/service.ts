import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { MetricsPoint as MetricsPointSchema, Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Models } from '../db/models/index.js';
import type { EventBus } from '../events/bus.js';
import type { ProcessWatch } from '../supervisor/supervisor.js';
import { processUsage } from '../supervisor/process-table.js';
import { LiveFigures } from './live-values.js';

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;
const MAX_POINTS = 1000;
const PRUNE_EVERY_MS = 10 * 60_000;

interface Sampled {
  pid: number;
  ticks: number;
  at: number;
}

type MetricsPoint = Static<typeof MetricsPointSchema>;

/** Samples CPU and memory of every running game each `metricsIntervalMs`: into the record, the history and `metrics` events. */
@injectable()
export class MetricsService implements ProcessWatch {
  private readonly watched = new Map<number, Sampled | { pid: number; ticks: null; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(LiveFigures) private readonly live: LiveFigures,
  ) {}

  attached(serverId: number, process: { pid: number }): void {
    const usage = processUsage(process.pid);
    this.watched.set(serverId, { pid: process.pid, ticks: usage?.ticks ?? null, at: Date.now() });
    if (usage) this.live.update(serverId, { ram_mb: toMb(usage.rssBytes) });
    this.timer ??= setInterval(() => (this.sampling = this.sampling.then(() => this.sample())), this.settings.metricsIntervalMs);
  }

  detached(serverId: number): void {
    this.watched.delete(serverId);
    this.live.clear(serverId);
    if (this.watched.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async sample(): Promise<void> {
    const now = Date.now();
    const rows: ({ server_id: number } & MetricsPoint)[] = [];
    for (const [serverId, last] of this.watched) {
      const usage = processUsage(last.pid);
      if (!usage) continue;
      const seconds = (now - last.at) / 1000;
      const cpu = last.ticks === null || seconds <= 0 ? 0 : Math.max(0, ((usage.ticks - last.ticks) / TICKS_PER_SECOND / seconds) * 100);
      this.watched.set(serverId, { pid: last.pid, ticks: usage.ticks, at: now });
      const point = { timestamp: new Date(now).toISOString(), cpu_percent: round(cpu), ram_mb: toMb(usage.rssBytes), player_count: this.live.get(serverId).player_count };
      this.live.update(serverId, { cpu_percent: point.cpu_percent, ram_mb: point.ram_mb });
      rows.push({ server_id: serverId, ...point });
      this.events.publish({ type: 'metrics', server_id: serverId, data: point });
    }
    try {
      if (rows.length) await this.models.Server.knex()('metrics').insert(rows);
      if (now - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = now;
        const cutoff = new Date(now - this.settings.metricsRetentionHours * 3_600_000).toISOString();
        await this.models.Server.knex()('metrics').where('timestamp', '<', cutoff).delete();
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'metrics not stored');
    }
  }

  /** Samples from `from` (default an hour ago) to `to` (default now), averaged per `resolution` minutes. */
  async history(serverId: number, query: { from?: string; to?: string; resolution?: number }): Promise<MetricsPoint[]> {
    const to = query.to ? Date.parse(query.to) : Date.now();
    const from = query.from ? Date.parse(query.from) : to - 3_600_000;
    if (Number.isNaN(from) || Number.isNaN(to)) return [];
    const rows: MetricsPoint[] = await this.models.Server.knex()('metrics')
      .where('server_id', serverId)
      .andWhere('timestamp', '>=', new Date(from).toISOString())
      .andWhere('timestamp', '<=', new Date(to).toISOString())
      .orderBy('timestamp')
      .select('timestamp', 'cpu_percent', 'ram_mb', 'player_count');
    // Without a resolution, the smallest whole number of minutes that keeps the answer within MAX_POINTS.
    const minutes = query.resolution ?? (rows.length > MAX_POINTS ? Math.ceil((to - from) / 60_000 / MAX_POINTS) : 0);
    if (!minutes) return rows.map((r) => ({ ...r, cpu_percent: Number(r.cpu_percent), ram_mb: Number(r.ram_mb) }));
    const size = minutes * 60_000;
    const buckets = new Map<number, MetricsPoint[]>();
    for (const row of rows) {
      const key = Math.floor(Date.parse(row.timestamp) / size) * size;
      const bucket = buckets.get(key) ?? [];
      bucket.push(row);
      buckets.set(key, bucket);
    }
    return [...buckets].map(([key, points]) => {
      const players = points.filter((p) => p.player_count !== null);
      return {
        timestamp: new Date(key).toISOString(),
        cpu_percent: round(average(points.map((p) => Number(p.cpu_percent)))),
        ram_mb: round(average(points.map((p) => Number(p.ram_mb)))),
        player_count: players.length ? round(average(players.map((p) => Number(p.player_count)))) : null,
      };
    });
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

const toMb = (bytes: number) => round(bytes / 1024 / 1024);
const round = (n: number) => Math.round(n * 10) / 10;
const average = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
