import type { Database } from './connection.js';

/** The database could not be used at start-up; the message says what to check. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'PROTOCOL_CONNECTION_LOST'];

/**
 * The driver's error as a deployer can act on it: which database, what went wrong, what to check. An
 * error that is not about reaching the database is returned as it is.
 */
export function explainConnectionFailure(err: unknown, db: Pick<Database, 'safeUrl' | 'dialect'>): unknown {
  const code = String((err as { code?: unknown })?.code ?? '');
  const reason = (err as Error)?.message ?? String(err);
  const where = db.safeUrl;
  const hint = (() => {
    if (UNREACHABLE.includes(code))
      return 'is the database server running, and are the host and port in GARRISON_DATABASE_URL (or --database) right?';
    if (code === 'ER_BAD_DB_ERROR') {
      const name = new URL(where).pathname.replace(/^\//, '');
      return `the database does not exist: create it with CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`;
    }
    if (code.startsWith('ER_ACCESS_DENIED') || code === 'ER_DBACCESS_DENIED_ERROR') {
      return 'check the user name and password in the URL, and that the user has all privileges on that database';
    }
    if (code.startsWith('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'EROFS' || code === 'SQLITE_READONLY') {
      return 'check that the data dir (or the sqlite: path) exists and is writable by the user running Garrison';
    }
    return null;
  })();
  if (!hint) return err;
  return new DatabaseUnavailableError(`cannot use the database ${where}: ${reason.split('\n')[0]}; ${hint}`, { cause: err });
}
