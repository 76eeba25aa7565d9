import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { expectOnly, isMissing } from '@garrison/core';

const LOCK_FILE = 'serve.lock';
/** Who holds the lock, for the refusal to name: the lock file itself cannot be read while it is held. */
const HOLDER_FILE = 'serve.holder';

export interface LockHolder {
  pid: number;
  host: string;
  started_at: string;
}

/** A second service on a data dir in use: it would adopt the first one's games and take its work. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    const who = holder ? `garrison serve with pid ${holder.pid} on host ${holder.host} (started ${holder.started_at})` : 'another process';
    super(`the data dir ${dataDir} is in use by ${who}: stop that one first, or give this one a data dir of its own (--data-dir)`);
  }
}

/**
 * One service per data dir, for the life of the process. The lock is SQLite's own on a file of the data
 * dir (an exclusive lock kept by `locking_mode=EXCLUSIVE` after a write): a POSIX record lock, which the
 * operating system lets go when the process ends however it ends, so a SIGKILLed service never blocks
 * the next one, and no stale file has to be judged. Commands that only work on the database (users,
 * backup-db) do not take it: they run beside the service.
 */
export class DataDirLock {
  private constructor(
    private readonly db: BetterSqlite.Database,
    private readonly holderPath: string,
  ) {}

  static take(dataDir: string, now: Date = new Date()): DataDirLock {
    const db = new BetterSqlite(join(dataDir, LOCK_FILE), { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      // A rollback journal: under WAL the exclusive mode would hold a different lock than the one described above.
      db.pragma('journal_mode = DELETE');
      db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, host TEXT, started_at TEXT)');
      db.exec('BEGIN IMMEDIATE');
      db.exec('DELETE FROM holder');
      db.exec('COMMIT');
    } catch (err) {
      db.close();
      if (['SQLITE_BUSY', 'SQLITE_LOCKED'].includes((err as { code?: string }).code ?? ''))
        throw new DataDirInUseError(dataDir, readHolder(join(dataDir, HOLDER_FILE)));
      throw err;
    }
    const holderPath = join(dataDir, HOLDER_FILE);
    const holder: LockHolder = { pid: process.pid, host: hostname(), started_at: now.toISOString() };
    const temp = `${holderPath}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(holder) + '\n', { mode: 0o600 });
    renameSync(temp, holderPath);
    return new DataDirLock(db, holderPath);
  }

  /** Lets the data dir go (the process's end does the same). */
  release(): void {
    if (!this.db.open) return;
    rmSync(this.holderPath, { force: true });
    this.db.close();
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.started_at === 'string'
      ? { pid: parsed.pid, host: parsed.host, started_at: parsed.started_at }
      : null;
  } catch (err) {
    if (!isMissing(err)) expectOnly(err, SyntaxError); // no holder written, or half written
    return null;
  }
}
