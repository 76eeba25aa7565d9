import type { Knex } from 'knex';

/**
 * Background jobs: queued for the node that owns their server (or the one that took the request), run
 * there one at a time under a lease the running node renews, and ended with an outcome. The log is a
 * JSON array of the last lines (100 of at most 500 characters: MEDIUMTEXT on MySQL/MariaDB holds them
 * in any script). Times are ISO text like every other table's; the lease is by the running node's clock.
 */
export const backgroundJobsTable = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('background_jobs', (t) => {
      t.increments('id').primary();
      t.string('kind', 64).notNullable();
      t.integer('server_id').unsigned().nullable().references('id').inTable('servers').onDelete('CASCADE');
      t.string('node_id', 64).notNullable();
      t.string('status', 16).notNullable();
      t.double('progress').notNullable().defaultTo(0);
      t.text('payload').notNullable();
      t.string('error_code', 64).nullable();
      t.string('error_message', 1000).nullable();
      t.text('log', 'mediumtext').notNullable();
      t.boolean('cancel_requested').notNullable().defaultTo(false);
      t.string('lease_until', 32).nullable();
      t.string('created_by', 200).nullable();
      t.string('created_at', 32).notNullable();
      t.string('started_at', 32).nullable();
      t.string('finished_at', 32).nullable();
      // The worker's claim (its node's oldest queued job) and the sweep (running jobs past their lease).
      t.index(['node_id', 'status', 'id']);
      t.index(['status', 'lease_until']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('background_jobs');
  },
};
