import type { Knex } from 'knex';

const MOVED = ['pid', 'started_at', 'process_start_time'] as const;

interface ServerProcess {
  id: number;
  status: string;
  pid: number | null;
  process_start_time: string | null;
  exe_path: string;
  started_at: string | null;
  updated_at: string;
}

/**
 * A server's process is a row of the processes table, and only there: the server row's copy of it
 * (`pid`, `started_at`, `process_start_time`) goes. A game the server row still names and the processes
 * table does not (left by a version that wrote the two apart) keeps its process, moved to its row first.
 */
export async function up(knex: Knex): Promise<void> {
  const named: ServerProcess[] = await knex('servers')
    .whereNotNull('pid')
    .select('id', 'status', 'pid', 'process_start_time', 'exe_path', 'started_at', 'updated_at');
  for (const s of named) {
    const key = { server_id: s.id, role: 'server', idx: 0 };
    const row: { pid: number | null } | undefined = await knex('processes').where(key).first('pid');
    if (!row) {
      await knex('processes').insert({
        ...key,
        instance_id: null,
        status: s.status,
        pid: s.pid,
        start_time: s.process_start_time,
        executable: s.exe_path,
        restart_count: 0,
        started_at: s.started_at,
        updated_at: s.updated_at,
      });
    } else if (row.pid === null) {
      await knex('processes').where(key).update({ pid: s.pid, start_time: s.process_start_time, started_at: s.started_at });
    }
  }
  await dropColumns(knex, MOVED);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (t) => {
    t.integer('pid').nullable();
    t.string('started_at', 32).nullable();
    t.string('process_start_time', 32).nullable();
  });
  const games: { server_id: number; pid: number; start_time: string | null; started_at: string | null }[] = await knex('processes')
    .where({ role: 'server', idx: 0 })
    .whereNotNull('pid')
    .select('server_id', 'pid', 'start_time', 'started_at');
  for (const g of games)
    await knex('servers').where({ id: g.server_id }).update({ pid: g.pid, started_at: g.started_at, process_start_time: g.start_time });
}

/**
 * SQLite drops a plain column in place (3.35 and later). knex's own way rebuilds the table, and dropping
 * the old `servers` inside the migration's transaction, where foreign keys cannot be switched off, would
 * delete every row that cascades from it.
 */
async function dropColumns(knex: Knex, columns: readonly string[]): Promise<void> {
  if (knex.client.config.client === 'better-sqlite3') {
    for (const column of columns) await knex.raw('ALTER TABLE ?? DROP COLUMN ??', ['servers', column]);
    return;
  }
  await knex.schema.alterTable('servers', (t) => {
    for (const column of columns) t.dropColumn(column);
  });
}
