import type { Knex } from 'knex';

/**
 * The nonces of the requests instances forward to each other, kept while their stamp is within the
 * tolerance: a copy of a hop sent again is refused, also by an instance restarted in between.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cluster_nonces', (t) => {
    t.string('nonce', 32).primary();
    t.bigInteger('stamped_at').notNullable(); // the hop's time, by the database's clock (ms)
    t.index(['stamped_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('cluster_nonces');
}
