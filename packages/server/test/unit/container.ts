import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import pino from 'pino';
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import gamea from '@garrison/adapter-gamea';
import type { AdapterDefinition } from '@garrison/core';
import { compose } from '../../src/compose.js';
import { migrate, type Database } from '../../src/db/connection.js';
import { FakeClock } from '../../src/jobs/clock.js';
import type { FinishedRun } from '../../src/jobs/runner.js';
import { AdapterRegistry } from '../../src/plugins/registry.js';
import { resolveSettings, type Settings, type SettingsInput } from '../../src/settings.js';
import { TOKENS } from '../../src/tokens.js';

/** Another service stood in for by a fake: resolved in its place by everything the container builds. */
export type Fake = readonly [token: InjectionToken<object>, value: object];

export interface UnitContainer {
  container: DependencyContainer;
  /** Time stands still until a test moves it (the job runner's timers included). */
  clock: FakeClock;
  settings: Settings;
  db: Database;
  resolve<T>(token: InjectionToken<T>): T;
  /** The end of the next run of the job `name`: what a test awaits after moving the clock on. */
  finished(name: string): Promise<FinishedRun>;
  /** Stops the jobs, closes the database and removes the data dir. */
  close(): Promise<void>;
}

const UNIT_NODE = 'unit-node';
/** A Monday noon, so that calendars in tests read plainly. */
const UNIT_EPOCH = new Date('2026-06-01T12:00:00Z');

/**
 * The service's container as `compose` builds it, on an in-memory SQLite database (migrated), a fake
 * clock, a data dir of its own and the game adapter the suite uses; `fakes` replace other services. The
 * one place the unit tier builds its services, so that a change to how the service is composed is
 * adapted here alone.
 */
export async function unitContainer(
  options: { settings?: SettingsInput; fakes?: readonly Fake[]; clock?: FakeClock; adapters?: AdapterDefinition[] } = {},
): Promise<UnitContainer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'garrison-unit-'));
  const settings = resolveSettings({ dataDir, ...options.settings });
  const clock = options.clock ?? new FakeClock(UNIT_EPOCH);
  const db = memoryDatabase();
  await migrate(db, clock);
  const container = compose(settings, pino({ level: 'silent' }), db, new AdapterRegistry(options.adapters ?? [gamea]), clock, UNIT_NODE);
  // Registered after compose's own: the last registration of a token is the one resolved.
  for (const [token, value] of options.fakes ?? []) container.register(token, { useValue: value });
  return {
    container,
    clock,
    settings,
    db,
    resolve: (token) => container.resolve(token),
    finished: (name) =>
      new Promise((resolve) => {
        const off = container.resolve(TOKENS.Jobs).onFinished((run) => {
          if (run.name !== name) return;
          off();
          resolve(run);
        });
      }),
    async close() {
      await container.resolve(TOKENS.Jobs).stop();
      await db.knex.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One connection (an in-memory database is the connection's own), with the service's foreign keys. */
function memoryDatabase(): Database {
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: ':memory:' },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      idleTimeoutMillis: Number.MAX_SAFE_INTEGER,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        conn.pragma('foreign_keys = ON');
        done(null, conn);
      },
    },
  });
  return { knex, dialect: 'sqlite', safeUrl: 'sqlite::memory:' };
}
