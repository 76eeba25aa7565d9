import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import type { LogLevel, LogLineReader } from '@garrison/core';
import { FileFollower } from './follow.js';
import { openFiles } from '../processes/proc.js';
import type { Clock } from '../jobs/clock.js';
import { errnoOf } from '@garrison/core';

/** Read per source and tick (5 a second): a flood is read over several ticks, never whole into memory. */
const READ_PER_TICK = 1024 * 1024;
/** How often a found game log is checked to still be the one the game writes. */
const RELOOK_MS = 2000;
const DEDUPE_MEMORY = 4000;

export interface CollectedLine {
  timestamp: string;
  level: LogLevel;
  message: string;
}

/**
 * The same line arrives twice when the game writes it to its output and to its own log file: the
 * second copy is dropped. Lines only one source has (a crash on stderr) pass.
 */
class TwoSourceDedupe {
  private readonly seen = [new Map<string, number>(), new Map<string, number>()];

  accept(source: 0 | 1, line: string): boolean {
    const other = this.seen[1 - source];
    const waiting = other.get(line);
    if (waiting) {
      if (waiting === 1) other.delete(line);
      else other.set(line, waiting - 1);
      return false;
    }
    const mine = this.seen[source];
    mine.set(line, (mine.get(line) ?? 0) + 1);
    if (mine.size > DEDUPE_MEMORY) mine.delete(mine.keys().next().value!);
    return true;
  }
}

/** The game's own log files: in the adapter's folder, each one the adapter calls a log. */
export interface GameLogFolder {
  dir: string;
  isLogFile(fileName: string): boolean;
}

/**
 * The log of one running game: its output file, and the log file the process itself holds open in the
 * adapter's log folder (found through /proc, since several servers may share that folder). Lines are
 * parsed by the adapter and throttled to `perSecond`, with a notice of what was dropped.
 */
export class LogCollector {
  /** The game's own log file, once found. */
  private gameLog: FileFollower | null = null;
  /** The log file the game let go of for a new one (a game that starts a file per map): read to its end, then closed. */
  private retired: FileFollower | null = null;
  /** When the process's open files were last looked through for its log. */
  private lookedAt = 0;
  private readonly watchers: FSWatcher[] = [];
  /** Set while a read for this collector is queued, so that a burst of writes queues one. */
  queued = false;
  /** When the read position was last saved. */
  savedAt = 0;
  private readonly dedupe = new TwoSourceDedupe();
  private readonly readers: [LogLineReader, LogLineReader];
  private windowStart: number;
  private inWindow = 0;
  private droppedInWindow = 0;

  constructor(
    readonly serverId: number,
    readonly pid: number,
    readonly output: FileFollower,
    /** A reader per source: each file's lines are read in their own order (a continuation follows its entry). */
    newReader: () => LogLineReader,
    private readonly logFolder: GameLogFolder | null,
    private readonly perSecond: number,
    gameLogResume: { path: string; offset: number } | null,
    private readonly clock: Clock,
  ) {
    this.windowStart = clock.now();
    if (gameLogResume) this.gameLog = new FileFollower(gameLogResume.path, gameLogResume.offset);
    this.readers = [newReader(), newReader()];
  }

  /**
   * Calls `onWrite` when a followed file changes (inotify), so that a line is read within milliseconds
   * rather than at the next poll; the poll stays as the fallback where watching is not possible.
   */
  watchFiles(onWrite: () => void): void {
    this.onWrite = onWrite;
    this.watchFile(this.output.path, 0);
    if (this.gameLog) this.watchFile(this.gameLog.path, 1);
  }

  private onWrite: (() => void) | null = null;
  /** The files written since they were last read (a change reads only those). */
  private readonly changed = new Set<0 | 1>();

  private watchFile(path: string, source: 0 | 1): void {
    if (!this.onWrite) return;
    const onWrite = this.onWrite;
    try {
      const watcher = watch(path, { persistent: false }, () => {
        this.changed.add(source);
        onWrite();
      });
      watcher.on('error', () => watcher.close());
      this.watchers.push(watcher);
    } catch (err) {
      // Not there yet, or not watchable (no inotify watch left): the poll reads it.
      if (!['ENOENT', 'ENOTDIR', 'ENOSPC', 'EMFILE', 'EACCES', 'EPERM'].includes(errnoOf(err) ?? '')) throw err;
    }
  }

  close(): void {
    for (const w of this.watchers.splice(0)) w.close();
    this.output.close();
    this.retired?.close();
    this.gameLog?.close();
  }

  get gameLogPosition(): { path: string; offset: number } | null {
    return this.gameLog && { path: this.gameLog.path, offset: this.gameLog.offset };
  }

  /**
   * New lines since the last call, parsed and throttled (a notice line in place of the dropped ones):
   * of both files, or with `onlyChanged` of those a change was seen in (the game writes most lines to
   * both: each write would otherwise read both files twice).
   */
  async collect(onlyChanged = false): Promise<CollectedLine[]> {
    await this.findGameLog();
    const out: CollectedLine[] = [];
    // The file the game let go of is read to its end first, whatever changed: its last lines come before the new file's.
    const sources: [0 | 1, FileFollower | null][] = [
      [0, this.output],
      [1, this.retired],
      [1, this.gameLog],
    ];
    const wanted = new Set(onlyChanged ? this.changed : [0, 1]);
    this.changed.clear();
    for (const [source, follower] of sources) {
      if (!follower || (!wanted.has(source) && follower !== this.retired)) continue;
      const raws = await follower.readLines(READ_PER_TICK);
      if (follower === this.retired && raws.length === 0) {
        this.retired.close();
        this.retired = null;
      }
      for (const raw of raws) {
        const line = raw.replace(/\r$/, '');
        if (!line.trim()) continue;
        // Every line goes through its source's reader, a copy too: the reader follows where each entry begins.
        const entry = this.readers[source](line);
        if (entry && this.dedupe.accept(source, line)) this.admit(out, entry);
      }
    }
    this.closeWindow(out);
    return out;
  }

  private admit(out: CollectedLine[], entry: ReturnType<LogLineReader> & {}): void {
    this.closeWindow(out);
    if (this.inWindow >= this.perSecond) {
      this.droppedInWindow += 1;
      return;
    }
    this.inWindow += 1;
    out.push({ timestamp: (entry.timestamp ?? new Date(this.clock.now())).toISOString(), level: entry.level, message: entry.message });
  }

  private closeWindow(out: CollectedLine[]): void {
    const now = this.clock.now();
    if (now - this.windowStart < 1000) return;
    if (this.droppedInWindow) {
      out.push({
        timestamp: new Date(this.clock.now()).toISOString(),
        level: 'warning',
        message: `Garrison: ${this.droppedInWindow} log lines dropped (the game wrote more than ${this.perSecond} a second)`,
      });
    }
    this.windowStart = now;
    this.inWindow = 0;
    this.droppedInWindow = 0;
  }

  /**
   * The process's open log file: one in the adapter's folder that the adapter calls a log. Looked for
   * again every few seconds once found, since a game may start a new file (one per map) and let go of the old.
   */
  private async findGameLog(): Promise<void> {
    if (!this.logFolder || (this.gameLog && this.clock.now() - this.lookedAt < RELOOK_MS)) return;
    this.lookedAt = this.clock.now();
    const folder = this.logFolder;
    const open = (await openFiles(this.pid)).filter((t) => t.startsWith(folder.dir + '/') && folder.isLogFile(basename(t)));
    if (!open.length || (this.gameLog && open.includes(this.gameLog.path))) return;
    if (this.gameLog) {
      this.retired?.close();
      this.retired = this.gameLog;
    }
    this.gameLog = new FileFollower(open[0], 0);
    this.watchFile(open[0], 1);
  }
}
