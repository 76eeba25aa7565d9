import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import {
  ApiError,
  type Actor,
  type LogLevel,
  type LogQuery as LogQuerySchema,
  type Static,
  expectOnly,
  isMissing,
  ifMissing,
  queryInstantMs,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import { ClusterLeases } from '../cluster/leases.js';
import type { LogSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import { isoAgo, type Clock } from '../jobs/clock.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { serverContext, serverDir } from '../servers/context.js';
import { ProcessWatchers, type ProcessWatch } from '../supervisor/watchers.js';
import { OUTPUT_FILE } from '../processes/output.js';
import { FileFollower } from './follow.js';
import { LogCollector, type CollectedLine } from './collector.js';
import { LineStore } from './line-store.js';
import { AuditService } from '../audit/service.js';

/** Files are watched; this poll is the fallback (and finds each game's own log file). */
const TICK_MS = 1000;
/** Count bounds are enforced about once a second for servers that logged; age bounds every ten minutes. */
const COUNT_PRUNE_EVERY_MS = 1000;
const AGE_PRUNE_EVERY_MS = 10 * 60_000;
const OFFSETS_FILE = 'log-offsets.json';

interface Offsets {
  pid: number;
  output: number;
  /** Where the game's own log file was read up to (`rpt` in the files older versions wrote: still read). */
  gameLog: { path: string; offset: number } | null;
}

type LogQuery = Static<typeof LogQuerySchema>;

/**
 * Follows the log of every running game: lines are parsed by the adapter, throttled, stored (within the
 * retention bounds) and published as `log` events. Where it has read up to is kept beside the server's
 * files, so that a re-adopted game's lines written while the service was down are read, not lost.
 */
@injectable()
export class LogService implements ProcessWatch, Lifecycle {
  private readonly collectors = new Map<number, Promise<LogCollector | null>>();
  private readonly touched = new Set<number>();
  private ticking: Promise<void> = Promise.resolve();
  /** The fallback read (and the count bound after it), while some game is followed. */
  private reader: Job | null = null;
  private agePruner: Job | null = null;
  private stopWatching: (() => void) | null = null;
  private readonly lineStore: LineStore;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: LogSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(ProcessWatchers) private readonly watchers: ProcessWatchers,
    @inject(ClusterLeases) private readonly leases: ClusterLeases,
    @inject(AuditService) private readonly audit: AuditService,
  ) {
    this.lineStore = new LineStore(jobs, (serverId, lines) => this.store(serverId, lines));
  }

  start(): void {
    this.stopWatching = this.watchers.add('logs', this);
    this.agePruner = this.jobs.every({
      name: 'logs.prune-age',
      everyMs: AGE_PRUNE_EVERY_MS,
      run: async () =>
        void (await this.leases.once('logs.prune-age', AGE_PRUNE_EVERY_MS, () =>
          this.repos.logLines.pruneBefore(isoAgo(this.clock, this.settings.logRetentionDays * 86_400_000)),
        )),
    });
  }

  /** Lets in-flight work finish; stored offsets let a later start pick up where this one left. */
  async stop(): Promise<void> {
    this.stopWatching?.();
    this.reader?.cancel();
    this.agePruner?.cancel();
    const collectors = await Promise.all(this.collectors.values());
    for (const collector of collectors) collector?.close();
    await this.ticking;
    for (const collector of collectors) collector?.close(); // a read under way may have opened a file again
    await this.lineStore.flush();
  }

  attached(serverId: number, process: { pid: number; adopted: boolean; outputOffset: number | null }): void {
    const collector = this.collectorFor(serverId, process).then(
      (c) => {
        c.watchFiles(() => this.readSoon(c));
        return c;
      },
      (err) => {
        this.logger.warn({ serverId, err: (err as Error).message }, 'cannot follow the game log');
        return null;
      },
    );
    this.collectors.set(serverId, collector);
    this.reader ??= this.jobs.every({ name: 'logs.read', everyMs: TICK_MS, startNow: false, run: () => this.tick() });
  }

  detached(serverId: number): void {
    const collector = this.collectors.get(serverId);
    this.collectors.delete(serverId);
    // What the game wrote last (a crash message) is read before letting go.
    if (collector) {
      this.queue(() =>
        collector.then(async (c) => {
          c?.close();
          if (c) await this.drain([c], true);
          c?.close(); // the last read opened the files again
        }),
      );
    }
    if (this.collectors.size === 0) {
      this.reader?.cancel();
      this.reader = null;
    }
  }

  private async collectorFor(
    serverId: number,
    process: { pid: number; adopted: boolean; outputOffset: number | null },
  ): Promise<LogCollector> {
    const row = await this.repos.servers.find(serverId);
    if (!row) throw new Error(`no server ${serverId}`);
    const dir = serverDir(this.settings.dataDir, serverId);
    const parser = this.adapters.get(row.game_type).capabilities.log_parser;
    const saved = process.adopted ? await readOffsets(dir) : null;
    const resume = saved?.pid === process.pid ? saved : null;
    const outputPath = join(dir, OUTPUT_FILE);
    const outputOffset = process.outputOffset ?? resume?.output ?? (await stat(outputPath).then((s) => s.size, ifMissing(0)));
    return new LogCollector(
      serverId,
      process.pid,
      new FileFollower(outputPath, outputOffset),
      () => parser?.reader?.() ?? (parser ? (line) => parser.parseLine(line) : (line) => ({ level: 'info', message: line })),
      parser ? { dir: parser.logDirectory(serverContext(row, this.settings.dataDir)), isLogFile: (name) => parser.isLogFile(name) } : null,
      this.settings.logLinesPerSecond,
      resume?.gameLog ?? null,
      this.clock,
    );
  }

  /** A followed file was written: read it now (one read queued per collector at a time). */
  private readSoon(collector: LogCollector): void {
    if (collector.queued) return;
    collector.queued = true;
    this.queue(() => {
      collector.queued = false;
      return this.drain([collector], false, true);
    });
  }

  /** Reads run one at a time, in order; a failure is logged and does not stop the ones after it. */
  private queue(task: () => Promise<void>): void {
    this.ticking = this.ticking.then(task).catch((err) => this.logger.error({ err }, 'log collection failed'));
  }

  /** The fallback read of every followed log, queued with the reads that file changes start; then the count bound. */
  private tick(): Promise<void> {
    this.queue(async () => {
      const collectors = (await Promise.all(this.collectors.values())).filter((c): c is LogCollector => c !== null);
      await this.drain(collectors);
      if (this.clock.now() - this.countPrunedAt >= COUNT_PRUNE_EVERY_MS) await this.pruneCounts();
    });
    return this.ticking;
  }

  private async drain(collectors: LogCollector[], final = false, onlyChanged = false): Promise<void> {
    for (const collector of collectors) {
      const lines = await collector.collect(onlyChanged);
      if (lines.length) {
        // Live first: a watcher should not wait for the database.
        for (const line of lines) this.events.publish({ type: 'log', server_id: collector.serverId, data: line });
        await this.lineStore.add(collector.serverId, lines);
        this.touched.add(collector.serverId);
      }
      // Saved at most once a second, and on letting go: a flood must not become a flood of small writes.
      if (!final && (!lines.length || this.clock.now() - collector.savedAt < 1000)) continue;
      collector.savedAt = this.clock.now();
      const offsets: Offsets = { pid: collector.pid, output: collector.output.offset, gameLog: collector.gameLogPosition };
      const path = join(serverDir(this.settings.dataDir, collector.serverId), OFFSETS_FILE);
      const serverId = collector.serverId;
      // Not kept (the server's folder deleted with it, a full disk): its log is read again from the offsets kept before.
      const unsaved = (err: unknown) => void (isMissing(err) || this.logger.warn({ serverId, err }, 'the log offsets were not saved'));
      this.lineStore.afterStored(() => writeFile(path, JSON.stringify(offsets)).catch(unsaved));
    }
    if (final) await this.lineStore.flush();
  }

  private async store(serverId: number, lines: CollectedLine[]): Promise<void> {
    try {
      await this.repos.logLines.insert(serverId, lines);
    } catch (err) {
      // The server was deleted meanwhile (its lines go with it), or the database is away: the lines stay in the files.
      this.logger.warn({ serverId, err: (err as Error).message }, 'log lines not stored');
    }
  }

  private countPrunedAt = 0;

  /** Keeps at most `logRetentionLines` per server that logged since the last time. */
  private async pruneCounts(): Promise<void> {
    this.countPrunedAt = this.clock.now();
    const touched = [...this.touched];
    this.touched.clear();
    for (const serverId of touched) await this.repos.logLines.keepNewest(serverId, this.settings.logRetentionLines);
  }

  async list(
    serverId: number,
    query: LogQuery,
  ): Promise<{ total: number; logs: { id: number; timestamp: string; level: LogLevel; message: string }[] }> {
    await this.assertServer(serverId);
    const { total, rows } = await this.repos.logLines.page(serverId, {
      limit: query.limit ?? 200,
      offset: query.offset ?? 0,
      ...(query.level ? { level: query.level } : {}),
      ...(query.since ? { since: new Date(queryInstantMs(query.since, 'since')).toISOString() } : {}),
      ...(query.search ? { search: query.search } : {}),
    });
    return { total, logs: rows };
  }

  async clear(serverId: number, actor: Actor): Promise<number> {
    await this.assertServer(serverId);
    return this.audit.inTransaction(async (trx) => {
      const deleted = await this.repos.logLines.clear(serverId, trx);
      await this.audit.record(trx, { serverId, type: 'logs_cleared', actor, detail: { lines: deleted } });
      return deleted;
    });
  }

  private async assertServer(serverId: number): Promise<void> {
    if (!(await this.repos.servers.find(serverId))) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
  }
}

async function readOffsets(dir: string): Promise<Offsets | null> {
  try {
    const saved = JSON.parse(await readFile(join(dir, OFFSETS_FILE), 'utf8')) as (Offsets & { rpt?: Offsets['gameLog'] }) | null;
    if (!saved) return null;
    // Older versions named the game's log file's position by the first game's file extension: read under either name.
    const { pid, output, gameLog, rpt: formerName } = saved;
    return { pid, output, gameLog: gameLog ?? formerName ?? null };
  } catch (err) {
    if (!isMissing(err)) expectOnly(err, SyntaxError); // none kept yet, or half written
    return null;
  }
}
