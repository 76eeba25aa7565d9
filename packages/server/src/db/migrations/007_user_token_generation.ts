import type { Knex } from 'knex';

/**
 * Each user's tokens carry the generation they were issued in; an admin's change of that user's role or
 * password moves it on, and every token of an older generation is refused from then on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('token_generation').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('token_generation');
  });
}
