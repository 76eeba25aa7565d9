import type { Knex } from 'knex';

/**
 * Sign-in sessions: each token carries its session's id, so that a user sees where they are signed in
 * and can end one session, or all, at once (a token of an ended session is refused).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 32).primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('created_at', 32).notNullable();
    t.string('last_seen_at', 32).notNullable();
    t.string('address', 64).nullable();
    t.string('user_agent', 255).nullable();
    t.string('expires_at', 32).notNullable();
    t.string('ended_at', 32).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
