import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { LogLevel, LogQuery as LogQuerySchema, Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Models } from '../db/models/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { EventBus } from '../events/bus.js';
import { serverContext, serverDir } from '../servers/context.js';
import type { ProcessWatch } from '../supervisor/supervisor.js';
import { OUTPUT_FILE } from '../supervisor/output.js';
import { whereContains } from '../db/text-search.js';
import { FileFollower } from './follow.js';
import { LogCollector, type CollectedLine } from './collector.js';

/** Files are watched; this poll is the fallback (and finds each game's own log file). */
const TICK_MS = 1000;
/** Count bounds are enforced about once a second for servers that logged; age bounds every minute. */
const PRUNE_EVERY_MS = 1000;
const AGE_PRUNE_EVERY_MS = 60_000;
const OFFSETS_FILE = 'log-offsets.json';
const INSERT_CHUNK = 200;

interface Offsets {
  pid: number;
  output: number;
  rpt: { path: string; offset: number } | null;
}

type LogQuery = Static<typeof LogQuerySchema>;

/**
 * Follows the log of every running game: lines are parsed by the adapter, throttled, stored (within the
 * retention bounds) and published as `log` events. Where it has read up to is kept beside the server's
 * files, so that a re-adopted game's lines written while the service was down are read, not lost.
 */
@injectable()
export class LogService implements ProcessWatch {
  private readonly collectors = new Map<number, Promise<LogCollector | null>>();
  private readonly touched = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private lastPrune = Date.now();
  private lastAgePrune = 0;

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Events) private readonly events: EventBus,
  ) {}

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
    this.timer ??= setInterval(() => this.tick(), TICK_MS);
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
        }),
      );
    }
    if (this.collectors.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async collectorFor(serverId: number, process: { pid: number; adopted: boolean; outputOffset: number | null }): Promise<LogCollector> {
    const row = await this.models.Server.query().findById(serverId);
    if (!row) throw new Error(`no server ${serverId}`);
    const dir = serverDir(this.settings.dataDir, serverId);
    const parser = this.adapters.get(row.game_type).capabilities.log_parser;
    const saved = process.adopted ? await readOffsets(dir) : null;
    const resume = saved?.pid === process.pid ? saved : null;
    const outputPath = join(dir, OUTPUT_FILE);
    const outputOffset = process.outputOffset ?? resume?.output ?? (await stat(outputPath).then((s) => s.size, () => 0));
    return new LogCollector(
      serverId,
      process.pid,
      new FileFollower(outputPath, outputOffset),
      parser ? (line) => parser.parseLine(line) : (line) => ({ level: 'info', message: line }),
      parser ? { dir: parser.logDirectory(serverContext(row, this.settings.dataDir)), extension: parser.logFileExtension } : null,
      this.settings.logLinesPerSecond,
      resume?.rpt ?? null,
    );
  }

  /** A followed file was written: read it now (one read queued per collector at a time). */
  private readSoon(collector: LogCollector): void {
    if (collector.queued) return;
    collector.queued = true;
    this.queue(() => {
      collector.queued = false;
      return this.drain([collector]);
    });
  }

  /** Reads run one at a time, in order; a failure is logged and does not stop the ones after it. */
  private queue(task: () => Promise<void>): void {
    this.ticking = this.ticking.then(task).catch((err) => this.logger.error({ err }, 'log collection failed'));
  }

  private tick(): void {
    this.queue(async () => {
      const collectors = (await Promise.all(this.collectors.values())).filter((c): c is LogCollector => c !== null);
      await this.drain(collectors);
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) await this.prune();
    });
  }

  private async drain(collectors: LogCollector[], final = false): Promise<void> {
    for (const collector of collectors) {
      const lines = await collector.collect();
      if (lines.length) {
        // Live first: a watcher should not wait for the database.
        for (const line of lines) this.events.publish({ type: 'log', server_id: collector.serverId, data: line });
        await this.store(collector.serverId, lines);
        this.touched.add(collector.serverId);
      }
      // Saved at most once a second, and on letting go: a flood must not become a flood of small writes.
      if (!final && (!lines.length || Date.now() - collector.savedAt < 1000)) continue;
      collector.savedAt = Date.now();
      const offsets: Offsets = { pid: collector.pid, output: collector.output.offset, rpt: collector.rptPosition };
      await writeFile(join(serverDir(this.settings.dataDir, collector.serverId), OFFSETS_FILE), JSON.stringify(offsets)).catch(() => {});
    }
  }

  private async store(serverId: number, lines: CollectedLine[]): Promise<void> {
    const rows = lines.map((l) => ({ server_id: serverId, ...l }));
    try {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) await this.models.Server.knex()('log_lines').insert(rows.slice(i, i + INSERT_CHUNK));
    } catch (err) {
      // The server was deleted meanwhile (its lines go with it), or the database is away: the lines stay in the files.
      this.logger.warn({ serverId, err: (err as Error).message }, 'log lines not stored');
    }
  }

  /** Keeps at most `logRetentionLines` per server, none older than `logRetentionDays`. */
  async prune(): Promise<void> {
    this.lastPrune = Date.now();
    const knex = this.models.Server.knex();
    if (Date.now() - this.lastAgePrune > AGE_PRUNE_EVERY_MS) {
      this.lastAgePrune = Date.now();
      const cutoff = new Date(Date.now() - this.settings.logRetentionDays * 86_400_000).toISOString();
      await knex('log_lines').where('timestamp', '<', cutoff).delete();
    }
    for (const serverId of this.touched) {
      const boundary = await knex('log_lines').where('server_id', serverId).orderBy('id', 'desc').offset(this.settings.logRetentionLines).first('id');
      if (boundary) await knex('log_lines').where('server_id', serverId).andWhere('id', '<=', boundary.id).delete();
    }
    this.touched.clear();
  }

  async list(serverId: number, query: LogQuery): Promise<{ total: number; logs: { id: number; timestamp: string; level: LogLevel; message: string }[] }> {
    const knex = this.models.Server.knex();
    const base = knex('log_lines').where('server_id', serverId);
    if (query.level) base.andWhere('level', query.level);
    if (query.since) base.andWhere('timestamp', '>=', new Date(query.since).toISOString());
    if (query.search) whereContains(base, 'message', query.search);
    const [{ count }] = await base.clone().count({ count: '*' });
    const rows = await base.clone().select('id', 'timestamp', 'level', 'message').orderBy('id', 'desc').limit(query.limit ?? 200).offset(query.offset ?? 0);
    return { total: Number(count), logs: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  }

  async clear(serverId: number): Promise<number> {
    return this.models.Server.knex()('log_lines').where('server_id', serverId).delete();
  }

  /** Lets in-flight work finish; stored offsets let a later start pick up where this one left. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const collector of await Promise.all(this.collectors.values())) collector?.close();
    await this.ticking;
  }
}

async function readOffsets(dir: string): Promise<Offsets | null> {
  try {
    return JSON.parse(await readFile(join(dir, OFFSETS_FILE), 'utf8')) as Offsets;
  } catch {
    return null;
  }
}
