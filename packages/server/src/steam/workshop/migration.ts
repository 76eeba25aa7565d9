import type { Knex } from 'knex';

/**
 * The Workshop items installed (or being installed) into each server: one row per server and item, owned
 * by the server's node (whose update check looks after it). `time_updated` is Steam's (Unix seconds), as
 * last asked; `installed_time_updated` is the version installed: the first greater than the second is an
 * update waiting. `keys` is the JSON list of the key files the item brought into the installation.
 */
export const workshopItemsTable = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.createTable('workshop_items', (t) => {
      t.increments('id').primary();
      t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
      t.string('workshop_id', 20).notNullable();
      t.string('name', 255).notNullable();
      t.string('folder', 64).nullable();
      t.string('status', 16).notNullable();
      t.bigInteger('time_updated').nullable();
      t.string('installed_at', 32).nullable();
      t.bigInteger('installed_time_updated').nullable();
      t.bigInteger('size_bytes').nullable();
      t.string('error_code', 64).nullable();
      t.string('error_message', 1000).nullable();
      t.text('keys').notNullable();
      t.string('node_id', 64).notNullable();
      t.string('created_at', 32).notNullable();
      t.string('updated_at', 32).notNullable();
      t.unique(['server_id', 'workshop_id']);
      // The update check: a node's installed items.
      t.index(['node_id', 'status']);
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.dropTable('workshop_items');
  },
};

/**
 * `pending_keys`: the JSON list of the key files an install is about to write, recorded before the first
 * is written and cleared once they are in `keys`. A crash in between leaves them listed there, so that
 * removing the item (or installing it again) still takes them out: no key is ever in the keys folder
 * without a row naming it. Null reads as none.
 */
export const workshopPendingKeysColumn = {
  async up(knex: Knex): Promise<void> {
    await knex.schema.alterTable('workshop_items', (t) => {
      t.text('pending_keys').nullable();
    });
  },
  async down(knex: Knex): Promise<void> {
    await knex.schema.alterTable('workshop_items', (t) => {
      t.dropColumn('pending_keys');
    });
  },
};
