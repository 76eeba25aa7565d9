import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Logger } from 'pino';
import { migrationSource, type Migration } from './migrations/index.js';
import { explainConnectionFailure } from './failures.js';
import { sqliteFileOf } from './settings.js';
import { SystemClock, type Clock } from '../jobs/clock.js';

export type Dialect = 'sqlite' | 'mysql';

/** What a MySQL/MariaDB server says it is (`10.11.19-MariaDB-…`). */
export async function databaseVersion(knex: Knex): Promise<string> {
  const [rows] = (await knex.raw('SELECT VERSION() AS v')) as [{ v: string }[]];
  return rows[0].v;
}

export interface Database {
  knex: Knex;
  dialect: Dialect;
  /** The URL with any password replaced, fit for a log line. */
  safeUrl: string;
}

/** knex's own warnings and errors go to the service's logger, not to the console beside it. */
function knexLog(logger: Logger | undefined): Knex.Config['log'] {
  if (!logger) return undefined;
  const log = (level: 'warn' | 'error' | 'debug') => (message: unknown) =>
    // The first line: knex appends the driver's stack, which says nothing to a deployer.
    logger[level](
      { source: 'knex' },
      String(typeof message === 'string' ? message : ((message as Error)?.message ?? message)).split('\n')[0],
    );
  return {
    warn: log('warn'),
    error: log('error'),
    debug: log('debug'),
    deprecate: (method: string, alternative: string) => logger.warn({ source: 'knex' }, `${method} is deprecated; use ${alternative}`),
  };
}

/**
 * Opens the database named by `url` (`mysql://…`, `sqlite:<file>`, or null for the data dir's SQLite
 * file). The SQLite file holds the game servers' passwords: it is made 0600, and SQLite gives its
 * -wal and -shm files the same mode.
 */
export function openDatabase(url: string | null, dataDir: string, logger?: Logger): Database {
  if (url && /^mysql2?:\/\//.test(url)) {
    const parsed = new URL(url);
    const knex = knexFactory({
      log: knexLog(logger),
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
  const filename = url ? sqliteFileOf(url) : join(dataDir, 'garrison.db');
  if (filename === null) throw new Error(`unsupported database URL (use mysql://… or sqlite:<file>): ${url!.split(':')[0]}:…`);
  mkdirSync(resolve(filename, '..'), { recursive: true, mode: 0o700 });
  keepPrivate(filename);
  const knex = knexFactory({
    log: knexLog(logger),
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

/** Creates the file 0600 when missing and makes it, and SQLite's side files, 0600 when they exist. */
function keepPrivate(filename: string): void {
  closeSync(openSync(filename, 'a', 0o600));
  for (const path of [filename, `${filename}-wal`, `${filename}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

const MIGRATION_LOCK_WAIT_MS = 60_000;

/**
 * Brings the schema up to date under knex's migration lock. Another instance migrating at the same
 * moment holds the lock (or creates knex's own tables first): this one waits for it, then finds
 * nothing left to do. A database that cannot be reached fails with what to check. `fromModules`: the
 * feature modules' own migrations, applied after the base ones.
 */
export async function migrate(
  db: Database,
  clock: Clock = new SystemClock(),
  fromModules: readonly [string, Migration][] = [],
): Promise<void> {
  const deadline = clock.now() + MIGRATION_LOCK_WAIT_MS;
  for (;;) {
    try {
      await ensureOneLockRow(db.knex);
      await db.knex.migrate.latest({ migrationSource: migrationSource(fromModules) });
      return;
    } catch (err) {
      const busy =
        (err as Error).name === 'MigrationLocked' || /already exists|Duplicate entry|UNIQUE constraint/i.test((err as Error).message);
      if (busy && clock.now() < deadline) {
        await clock.sleep(250);
        continue;
      }
      if (busy) {
        throw new Error(
          `the database's migration lock has been held for ${MIGRATION_LOCK_WAIT_MS / 1000} s: if no other Garrison is ` +
            `starting, a migration was cut off; run garrison migrate --unlock, then start again`,
          { cause: err },
        );
      }
      throw explainConnectionFailure(err, db);
    }
  }
}

const LOCK_TABLE = 'knex_migrations_lock';

/**
 * knex inserts its lock row when it finds none, so two instances starting at once on an empty database
 * can insert two; its lock must then change exactly one row and is never taken again. The row is made
 * here first, under a fixed key that a second insert cannot duplicate, and a second row left by an
 * earlier race is removed. The table is knex's own definition.
 */
async function ensureOneLockRow(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable(LOCK_TABLE))) {
    await knex.schema.createTable(LOCK_TABLE, (t) => {
      t.increments('index').primary();
      t.integer('is_locked');
    });
  }
  await knex(LOCK_TABLE).insert({ index: 1, is_locked: 0 }).onConflict('index').ignore();
  const rows: { index: number }[] = await knex(LOCK_TABLE).select('index').orderBy('index');
  if (rows.length > 1) await knex(LOCK_TABLE).whereNot('index', rows[0].index).delete();
}

/** Frees knex's migration lock left behind by a migration that was cut off (`garrison migrate --unlock`). */
export async function unlockMigrations(db: Database): Promise<void> {
  await db.knex.migrate.forceFreeMigrationsLock({ migrationSource: migrationSource() });
}
