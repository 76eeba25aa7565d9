import type { Knex } from 'knex';

/**
 * Backups of a server's state (the archive is a file in the backup folder; the row says what it is and
 * how it went), owned by the instance that writes them; and how many automatic ones a server keeps.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('backups', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('status', 16).notNullable();
    t.string('file', 255).notNullable();
    t.string('instance_id', 64).nullable();
    t.string('created_at', 32).notNullable();
    t.string('finished_at', 32).nullable();
    t.bigInteger('size_bytes').nullable();
    t.string('sha256', 64).nullable();
    t.boolean('locked').notNullable();
    t.string('note', 500).nullable();
    t.boolean('include_missions').notNullable();
    t.string('error', 500).nullable();
    t.text('manifest').nullable();
    t.index(['server_id', 'id']);
  });
  await knex.schema.alterTable('servers', (t) => {
    t.integer('backup_keep').notNullable().defaultTo(7);
    t.text('backup_exclude').nullable(); // JSON: file name patterns a backup leaves out, besides the game's
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.dropColumn('backup_keep');
    t.dropColumn('backup_exclude');
  });
  await knex.schema.dropTable('backups');
}
