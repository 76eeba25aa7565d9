import type { Knex } from 'knex';
import * as initial from './001_initial.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const all: [string, Migration][] = [['001_initial', initial]];

/** Migrations are imported, not globbed from disk, so they run the same from source and from dist. */
export const migrations: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => all,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
