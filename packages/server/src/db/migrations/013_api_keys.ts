import type { Knex } from 'knex';

/**
 * API keys: a user's, with some of the user's rights (scopes), optionally limited to servers and to
 * address ranges, with an expiry. Only a SHA-256 of the key's secret is kept (a random 32-byte secret
 * needs no slow hash).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('secret_sha256', 64).notNullable();
    t.string('prefix', 40).notNullable();
    t.text('scopes').notNullable(); // JSON
    t.text('server_ids').nullable(); // JSON; null: every server
    t.text('cidrs').nullable(); // JSON; null: from anywhere
    t.string('expires_at', 32).nullable();
    t.string('created_at', 32).notNullable();
    t.string('last_used_at', 32).nullable();
    t.string('last_used_address', 64).nullable();
    t.string('revoked_at', 32).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
}
