import type { Knex } from 'knex';

/**
 * What bounds a guesser of two-factor codes who has the password, on every instance alike: an account's
 * wrong codes in a row and the pause they bring (on the user), the first steps' tokens already used for a
 * sign-in (a digest each, kept until the token would have expired), and the account's own audit trail
 * (what happened to a user rather than to a server: a pause).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('second_step_failures').notNullable().defaultTo(0);
    t.string('second_step_paused_until', 32).nullable();
  });
  await knex.schema.createTable('used_mfa_tokens', (t) => {
    t.string('token_sha256', 64).primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('expires_at', 32).notNullable();
    t.index(['expires_at']);
  });
  await knex.schema.createTable('account_events', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('username', 64).notNullable();
    t.string('event_type', 64).notNullable();
    t.text('detail').notNullable();
    t.string('timestamp', 32).notNullable();
    t.index(['user_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_events');
  await knex.schema.dropTable('used_mfa_tokens');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('second_step_failures');
    t.dropColumn('second_step_paused_until');
  });
}
