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
