import type { Knex } from 'knex';

/**
 * Schedules of a server (a cron expression in a time zone, the next run stored in UTC), their steps
 * (offsets from the run's start), and their runs: a run is claimed by inserting its row, unique per
 * schedule and due time, so that two instances never run it twice; the instance running it holds a
 * lease that it renews, and a run whose lease ran out is taken over.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('schedules', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('cron', 100).notNullable();
    t.string('timezone', 64).notNullable();
    t.boolean('enabled').notNullable();
    t.integer('misfire_late_s').nullable(); // null: skip a late run
    t.integer('jitter_s').notNullable();
    t.string('overlap', 8).notNullable();
    t.text('conditions').notNullable();
    t.string('next_slot_at', 32).nullable(); // the cron time
    t.string('next_run_at', 32).nullable(); // the cron time plus its jitter: when the run is due
    t.string('disabled_reason', 300).nullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['enabled', 'next_run_at']);
  });
  await knex.schema.createTable('schedule_steps', (t) => {
    t.increments('id').primary();
    t.integer('schedule_id').unsigned().notNullable().references('id').inTable('schedules').onDelete('CASCADE');
    t.integer('idx').notNullable();
    t.integer('at_s').notNullable();
    t.string('action', 32).notNullable();
    t.text('payload').notNullable();
    t.boolean('continue_on_failure').notNullable();
    t.unique(['schedule_id', 'idx']);
  });
  await knex.schema.createTable('schedule_runs', (t) => {
    t.increments('id').primary();
    t.integer('schedule_id').unsigned().notNullable().references('id').inTable('schedules').onDelete('CASCADE');
    t.string('due_at', 32).notNullable();
    t.string('trigger', 16).notNullable();
    t.string('instance_id', 64).nullable();
    t.string('lease_until', 32).nullable();
    t.string('status', 16).notNullable();
    t.string('reason', 500).nullable();
    t.string('started_at', 32).nullable();
    t.string('finished_at', 32).nullable();
    t.text('steps').notNullable();
    t.unique(['schedule_id', 'due_at']);
    t.index(['status', 'lease_until']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('schedule_runs');
  await knex.schema.dropTable('schedule_steps');
  await knex.schema.dropTable('schedules');
}
