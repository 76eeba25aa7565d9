import type { Knex } from 'knex';

/**
 * Two-factor sign-in: a user's TOTP secret (encrypted with a key derived from the service's secret;
 * `totp_pending` while enrolling), the last time step accepted (a code is good once), and recovery codes
 * (SHA-256 of each, used once).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('totp_secret').nullable();
    t.text('totp_pending').nullable();
    t.bigInteger('totp_last_step').nullable();
  });
  await knex.schema.createTable('recovery_codes', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('code_sha256', 64).notNullable();
    t.string('used_at', 32).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('recovery_codes');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('totp_secret');
    t.dropColumn('totp_pending');
    t.dropColumn('totp_last_step');
  });
}
