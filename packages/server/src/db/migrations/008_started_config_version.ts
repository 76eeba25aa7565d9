import type { Knex } from 'knex';

/**
 * The config version (the sum of the server's section versions) its running process was started with:
 * a later change to the config needs a restart to take effect, and the console says so.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.integer('started_config_version').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.dropColumn('started_config_version');
  });
}
