import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    // The kernel's start time of the recorded pid (clock ticks since boot, /proc/<pid>/stat): a pid that
    // was recycled for another process after a reboot or a long downtime starts at another time.
    t.string('process_start_time', 32).nullable();
  });
  await knex.schema.createTable('server_events', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('event_type', 32).notNullable();
    t.string('actor', 64).nullable();
    t.text('detail').notNullable();
    t.string('timestamp', 32).notNullable();
    t.index(['server_id', 'event_type', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('server_events');
  await knex.schema.alterTable('servers', (t) => t.dropColumn('process_start_time'));
}
