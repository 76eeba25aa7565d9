import type { Knex } from 'knex';

/** Steam's current builds per app and branch, with when they were asked for: Steam is asked at most every few minutes. */
export const steamAppInfoTable = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('steam_app_info', (t) => {
      t.string('app_id', 20).primary();
      t.text('builds').notNullable();
      t.string('checked_at', 32).notNullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('steam_app_info');
  },
};

/**
 * The installations whose last install did not complete, one row each (a folder of a node, keyed by a
 * hash of both: a path may be longer than an index allows): a start of a server run from one is refused.
 */
export const steamInstallationsTable = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('steam_installations', (t) => {
      t.string('key', 64).primary();
      t.string('node_id', 64).notNullable();
      t.text('install_dir').notNullable();
      t.integer('job_id').notNullable();
      t.string('since', 32).notNullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('steam_installations');
  },
};
