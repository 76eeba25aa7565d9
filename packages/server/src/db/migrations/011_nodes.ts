import type { Knex } from 'knex';

/**
 * The instances of a cluster (one for a single instance), their heartbeats by the database's clock; the
 * node that owns each server (runs its processes, keeps its files); and the leases under which work that
 * must happen once in the whole cluster runs, each with a fencing token that moves on at every change of
 * holder.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('nodes', (t) => {
    t.string('id', 64).primary();
    t.string('url', 500).notNullable();
    t.string('version', 32).notNullable();
    t.text('game_types').notNullable(); // JSON array
    t.boolean('draining').notNullable().defaultTo(false);
    t.string('incarnation', 32).notNullable(); // one per start: a second process with the same id is told apart
    t.boolean('events_connected').nullable();
    t.datetime('started_at', { precision: 3 }).notNullable();
    t.datetime('last_seen', { precision: 3 }).notNullable();
  });
  await knex.schema.alterTable('servers', (t) => {
    t.string('node_id', 64).nullable();
    t.index(['node_id']);
  });
  await knex.schema.createTable('leases', (t) => {
    t.string('name', 100).primary();
    t.string('holder', 64).nullable();
    t.bigInteger('token').notNullable().defaultTo(0);
    t.datetime('expires_at', { precision: 3 }).notNullable();
  });
  // rate-limiter-flexible's MySQL store, as it would make it itself: the cluster's shared rate limits.
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire').unsigned().nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limits');
  await knex.schema.dropTable('leases');
  await knex.schema.alterTable('servers', (t) => {
    t.dropIndex(['node_id']);
    t.dropColumn('node_id');
  });
  await knex.schema.dropTable('nodes');
}
