import { chmod, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import type { Database } from './connection.js';

class DatabaseBackupError extends Error {}

interface SqliteConnection {
  backup(destination: string): Promise<unknown>;
}

/**
 * A copy of Garrison's own SQLite database, taken while the service runs (SQLite's online backup, page
 * by page), checked with `PRAGMA integrity_check` before it takes its name (0600: it holds the game
 * servers' passwords). MySQL/MariaDB have their own tool for this, which the error names.
 */
export async function backupDatabase(db: Database, target: string): Promise<{ path: string; bytes: number }> {
  if (db.dialect !== 'sqlite') {
    throw new DatabaseBackupError(
      `${db.safeUrl} is not SQLite: back it up with mariadb-dump --single-transaction --routines <database> ` +
        `> ${basename(target)}.sql (see docs/deploy.md)`,
    );
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const conn = (await db.knex.client.acquireConnection()) as SqliteConnection;
  try {
    await conn.backup(temp);
  } catch (err) {
    await rm(temp, { force: true });
    throw new DatabaseBackupError(`the backup to ${target} failed: ${(err as Error).message}`);
  } finally {
    await db.knex.client.releaseConnection(conn);
  }
  try {
    const copy = new BetterSqlite(temp, { readonly: true, fileMustExist: true });
    let result: unknown;
    try {
      result = copy.pragma('integrity_check', { simple: true });
    } finally {
      copy.close();
    }
    if (result !== 'ok') throw new DatabaseBackupError(`the copy failed its integrity check: ${String(result)}`);
    await chmod(temp, 0o600);
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return { path: target, bytes: (await stat(target)).size };
}
