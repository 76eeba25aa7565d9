import type { Knex } from 'knex';

/**
 * The game's ban file is shared with the game and other tools: each ban now knows where it came from
 * (`api`, or `file` when it was found in the file) and where its line stands (`add`: to be written,
 * `ok`: in the file as `file_line`, `remove`: to be taken out, `none`: not in the file).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bans', (t) => {
    t.string('source', 8).notNullable().defaultTo('api');
    t.string('file_state', 8).notNullable().defaultTo('none');
    t.text('file_line').nullable();
  });
  // Bans in force were written by the old whole-file sync: the first pass finds their lines (or writes them).
  await knex('bans').where('active', true).update({ file_state: 'add' });
  // SQLite does not enforce lengths; MySQL/MariaDB would refuse the ids and reasons real files hold.
  if (knex.client.config.client === 'mysql2') {
    await knex.schema.alterTable('bans', (t) => {
      t.string('guid', 128).notNullable().alter();
      t.text('reason').notNullable().alter();
    });
  }
  await knex.schema.alterTable('bans', (t) => t.index(['server_id', 'file_state']));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bans', (t) => {
    t.dropIndex(['server_id', 'file_state']);
    t.dropColumn('file_line');
    t.dropColumn('file_state');
    t.dropColumn('source');
  });
}
