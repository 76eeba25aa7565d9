import type { Knex } from 'knex';

/**
 * What the console shows of a server at a glance: the config version (the sum of its section versions)
 * its running process was started with, since a later change needs a restart to take effect; and the
 * mission the game said it is playing (kept here, so that it survives a restart of the service).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.integer('started_config_version').nullable();
    t.string('current_mission', 256).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.dropColumn('started_config_version');
    t.dropColumn('current_mission');
  });
}
