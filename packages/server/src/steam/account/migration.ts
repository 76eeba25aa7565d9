import type { Knex } from 'knex';

/**
 * The Steam account SteamCMD logs in with: one row. The password and a pending Steam Guard code are sealed
 * (AES-256-GCM, a key of their own derived from the signing secret), as the two-factor secrets are.
 */
export const steamAccountTable = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('steam_account', (t) => {
      t.integer('id').primary();
      t.string('username', 64).notNullable();
      t.string('password_sealed', 1000).notNullable();
      t.string('guard_code_sealed', 200).nullable();
      t.string('updated_at', 32).notNullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('steam_account');
  },
};
