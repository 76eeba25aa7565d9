import type { Knex } from 'knex';

/**
 * Processes, not servers, are supervised: one row per process a server has (the game server itself, its
 * headless clients), owned by the instance that runs it. The audit trail names what kind of actor acted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('processes', (t) => {
    t.increments('id').primary();
    t.integer('server_id').unsigned().notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('role', 16).notNullable();
    t.integer('idx').notNullable();
    /** The service instance that spawned or adopted it; only that instance watches it. */
    t.string('instance_id', 64).nullable();
    t.string('status', 16).notNullable();
    t.integer('pid').nullable();
    /** The kernel's start time of the pid, to tell the process from a later one with the same pid. */
    t.string('start_time', 32).nullable();
    t.string('executable', 4096).notNullable();
    t.integer('restart_count').notNullable().defaultTo(0);
    t.string('started_at', 32).nullable();
    t.string('updated_at', 32).notNullable();
    t.unique(['server_id', 'role', 'idx']);
    t.index(['instance_id']);
  });
  // A game running under an earlier version: its process, owned by no instance yet (the next start claims it).
  const running = await knex('servers')
    .whereNotNull('pid')
    .select('id', 'status', 'pid', 'process_start_time', 'exe_path', 'started_at', 'updated_at');
  for (const s of running) {
    await knex('processes').insert({
      server_id: s.id,
      role: 'server',
      idx: 0,
      instance_id: null,
      status: s.status,
      pid: s.pid,
      start_time: s.process_start_time,
      executable: s.exe_path,
      restart_count: 0,
      started_at: s.started_at,
      updated_at: s.updated_at,
    });
  }
  await knex.schema.alterTable('servers', (t) => {
    t.integer('headless_clients').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('server_events', (t) => {
    t.string('actor_kind', 16).notNullable().defaultTo('system');
    t.string('actor_id', 64).nullable();
  });
  await knex('server_events').whereNotNull('actor').update({ actor_kind: 'user' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('server_events', (t) => {
    t.dropColumn('actor_id');
    t.dropColumn('actor_kind');
  });
  await knex.schema.alterTable('servers', (t) => t.dropColumn('headless_clients'));
  await knex.schema.dropTableIfExists('processes');
}
