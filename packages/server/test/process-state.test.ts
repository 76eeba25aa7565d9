import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrationSource } from '../src/db/migrations/index.js';
import { featureModules } from '../src/compose.js';
import { moduleMigrations } from '../src/modules/assembly.js';
import { down as beforeProcessState } from '../src/db/migrations/021_process_state_on_processes.js';
import { down as beforeNodeNames } from '../src/db/migrations/022_node_names.js';
import { ServerRepository } from '../src/db/repositories/servers.js';
import { createServer, startHarness, withDatabase } from './helpers.js';

/**
 * A server's game process is a row of the processes table, and only there (migration 021): what an older
 * version kept on the server row alone moves to that row, and the server row keeps no pid.
 */
describe('the process state on the processes table only (migration 021)', () => {
  it('moves a pid only the server row held onto its process row, drops the columns, and the server still shows its pid', async () => {
    const h = await startHarness();
    try {
      const alone = await createServer(h);
      const behind = await createServer(h);
      await h.server.close();
      await withDatabase(h, async (knex) => {
        // The database as a version before 021 left it: the game's pid on the server row; one server with
        // no process row at all, one whose row was written apart from it and says nothing of the pid.
        await beforeNodeNames(knex);
        await beforeProcessState(knex);
        await knex('knex_migrations').whereIn('name', ['021_process_state_on_processes', '022_node_names']).delete();
        await knex('servers')
          .where({ id: alone.id })
          .update({ status: 'running', pid: 4242, started_at: '2026-11-27T10:00:00.000Z', process_start_time: '987654' });
        await knex('servers')
          .where({ id: behind.id })
          .update({ status: 'running', pid: 4343, started_at: '2026-11-27T11:00:00.000Z', process_start_time: '123456' });
        await knex('processes').insert({
          server_id: behind.id,
          role: 'server',
          idx: 0,
          instance_id: 'n1',
          status: 'running',
          pid: null,
          start_time: null,
          executable: '/x',
          restart_count: 0,
          started_at: null,
          updated_at: '2026-11-27T11:00:00.000Z',
        });

        // The modules' migrations too: the service had recorded them.
        await knex.migrate.latest({ migrationSource: migrationSource(moduleMigrations(featureModules())) });

        const columns = Object.keys(await knex('servers').columnInfo());
        assert.deepEqual(
          columns.filter((c) => ['pid', 'started_at', 'process_start_time'].includes(c)),
          [],
          'no process state on the server row',
        );
        const rows = await knex('processes')
          .where({ role: 'server' })
          .orderBy('server_id')
          .select('server_id', 'status', 'pid', 'start_time', 'started_at', 'node_id');
        assert.deepEqual(
          rows.map((r) => ({ ...r, pid: Number(r.pid) })),
          [
            {
              server_id: alone.id,
              status: 'running',
              pid: 4242,
              start_time: '987654',
              started_at: '2026-11-27T10:00:00.000Z',
              node_id: null,
            },
            {
              server_id: behind.id,
              status: 'running',
              pid: 4343,
              start_time: '123456',
              started_at: '2026-11-27T11:00:00.000Z',
              node_id: 'n1',
            },
          ],
        );
        // What the API publishes of a server's process is read from that row.
        const read = await new ServerRepository(knex).find(alone.id);
        assert.equal(read?.pid, 4242);
        assert.equal(read?.started_at, '2026-11-27T10:00:00.000Z');
      });
    } finally {
      await h.close().catch(() => undefined); // its service was closed above
    }
  });
});
