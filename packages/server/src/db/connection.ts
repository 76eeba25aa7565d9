import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrations } from './migrations/index.js';

export type Dialect = 'sqlite' | 'mysql';

export interface Database {
  knex: Knex;
  dialect: Dialect;
  /** The URL with any password replaced, fit for a log line. */
  safeUrl: string;
}

/** Opens the database named by `url` (`mysql://…`, `sqlite:<file>`, or null for the data dir's SQLite file). */
export function openDatabase(url: string | null, dataDir: string): Database {
  if (url && /^mysql2?:\/\//.test(url)) {
    const parsed = new URL(url);
    const knex = knexFactory({
      client: 'mysql2',
      connection: {
        host: parsed.hostname,
        port: Number(parsed.port || 3306),
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        database: parsed.pathname.replace(/^\//, ''),
        charset: 'utf8mb4',
        // Timestamps are ISO strings we write ourselves; keep the driver from converting anything.
        dateStrings: true,
        supportBigNumbers: true,
      },
      pool: { min: 0, max: 10 },
    });
    if (parsed.password) parsed.password = '***';
    return { knex, dialect: 'mysql', safeUrl: parsed.toString() };
  }
  if (url && !url.startsWith('sqlite:')) throw new Error(`unsupported database URL (use mysql://… or sqlite:<file>): ${url.split(':')[0]}:…`);
  const filename = url ? resolve(url.slice('sqlite:'.length).replace(/^\/\//, '')) : join(dataDir, 'garrison.db');
  mkdirSync(resolve(filename, '..'), { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        cachePreparedStatements(conn);
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
  });
  return { knex, dialect: 'sqlite', safeUrl: `sqlite:${filename}` };
}

interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): unknown;
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * knex prepares every query anew, which cost a loaded service more than running the query did; a
 * better-sqlite3 statement can be run again and again, so the connection keeps the recently used ones.
 */
function cachePreparedStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement) cache.delete(sql);
    else statement = prepare(sql);
    cache.set(sql, statement); // most recently used last
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  };
}

export async function migrate(db: Database): Promise<void> {
  await db.knex.migrate.latest({ migrationSource: migrations });
}
