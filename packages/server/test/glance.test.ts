import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDatabase } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, runningGameServer, killGames, statusBecomes, wsClient } from './games.js';

describe('servers at a glance: the name players see, the player limit, and what needs attention', () => {
  const suite = gameService(FAST_SUPERVISION);
  const api = (method: string, path: string, body?: unknown) => suite.h.api(method, path, { token: suite.h.adminToken, body });
  const listed = async (id: number) => (await api('GET', '/servers')).body.data.find((s: { id: number }) => s.id === id);

  it('shows the hostname and the player limit from the config, in the list and the detail, at once after a change', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    assert.deepEqual([s.hostname, s.max_players, s.warnings], ['Garrison Server', 40, []]);
    assert.deepEqual([(await listed(s.id)).hostname, (await listed(s.id)).max_players], ['Garrison Server', 40]);
    const section = (await api('GET', `/servers/${s.id}/config/server`)).body.data;
    assert.equal(
      (
        await api('PUT', `/servers/${s.id}/config/server`, {
          hostname: 'Sunday Ops | EU',
          max_players: 64,
          config_version: section._meta.config_version,
        })
      ).status,
      200,
    );
    // The list a moment ago is not reused: the config is part of what it is made of.
    assert.deepEqual([(await listed(s.id)).hostname, (await listed(s.id)).max_players], ['Sunday Ops | EU', 64]);
    const detail = (await api('GET', `/servers/${s.id}`)).body.data;
    assert.deepEqual([detail.hostname, detail.max_players], ['Sunday Ops | EU', 64]);
  });

  it('warns of an executable that is not there, from the creation on, until it is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'garrison-glance-'));
    try {
      const exe = join(dir, 'gameaserver_x64.exe');
      const created = await createGameServer(suite.h, suite.fake, { exe_path: exe });
      assert.deepEqual(created.warnings, ['exe_missing'], 'said at creation');
      assert.deepEqual((await listed(created.id)).warnings, ['exe_missing'], 'and on the card');
      await writeFile(exe, '');
      // Looked for again at an update (and every 30 s by a job).
      assert.deepEqual((await api('PUT', `/servers/${created.id}`, { description: 'moved in place' })).body.data.warnings, []);
      assert.deepEqual((await listed(created.id)).warnings, []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('warns of a crash loop the supervisor gave up on', async () => {
    const gaveUp = await createGameServer(suite.h, suite.fake, { auto_restart: true, max_restarts: 2 });
    const restarting = await createGameServer(suite.h, suite.fake, { auto_restart: true, max_restarts: 2 });
    // (Written behind the service's back, before its next list: the states the supervisor leaves.)
    await withDatabase(suite.h, async (knex) => {
      await knex('servers').where({ id: gaveUp.id }).update({ status: 'crashed', restart_count: 2 });
      await knex('servers').where({ id: restarting.id }).update({ status: 'crashed', restart_count: 1 });
    });
    const list = (await api('GET', '/servers?limit=500')).body.data;
    const warningsOf = (id: number) => list.find((s: { id: number }) => s.id === id).warnings;
    assert.deepEqual(warningsOf(gaveUp.id), ['crash_loop']);
    assert.deepEqual(warningsOf(restarting.id), [], 'still restarting: no warning');
  });

  it('says a restart is needed while the running game was started with an older config, until it restarts', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    try {
      assert.deepEqual((await listed(s.id)).warnings, []);
      const section = (await api('GET', `/servers/${s.id}/config/server`)).body.data;
      assert.equal(
        (await api('PUT', `/servers/${s.id}/config/server`, { max_players: 50, config_version: section._meta.config_version })).status,
        200,
      );
      assert.deepEqual((await listed(s.id)).warnings, ['restart_needed']);
      assert.deepEqual((await api('GET', `/servers/${s.id}`)).body.data.warnings, ['restart_needed']);
      assert.equal((await api('POST', `/servers/${s.id}/restart`)).status, 200);
      await statusBecomes(suite.h, s.id, 'running');
      assert.deepEqual((await listed(s.id)).warnings, []);
      assert.deepEqual((await api('GET', `/servers/${s.id}`)).body.data.warnings, []);
      // A stopped server needs no restart, whatever changed; and a start takes the config as it is.
      const again = (await api('GET', `/servers/${s.id}/config/server`)).body.data;
      assert.equal(
        (await api('PUT', `/servers/${s.id}/config/server`, { max_players: 60, config_version: again._meta.config_version })).status,
        200,
      );
      assert.deepEqual((await listed(s.id)).warnings, ['restart_needed']);
      assert.equal((await api('POST', `/servers/${s.id}/stop`)).status, 200);
      assert.deepEqual((await listed(s.id)).warnings, []);
      assert.deepEqual((await api('GET', `/servers/${s.id}`)).body.data.warnings, []);
      assert.equal((await api('POST', `/servers/${s.id}/start`)).status, 200);
      await statusBecomes(suite.h, s.id, 'running');
      assert.deepEqual((await listed(s.id)).warnings, []);
    } finally {
      await killGames(suite.h);
    }
  });

  it('shows the mission the game says it plays, live, kept on the record, and none once stopped', async () => {
    const s = await runningGameServer(suite.h, suite.fake);
    const ws = await wsClient(suite.h.url, `/ws?token=${suite.h.viewerToken}&server_id=${s.id}`);
    try {
      await mkdir(join(suite.fake.dir, 'mpmissions'), { recursive: true });
      await writeFile(join(suite.fake.dir, 'mpmissions', 'co10_Escape.Altis.pbo'), 'mission');
      assert.equal((await api('POST', `/servers/${s.id}/rcon/command`, { command: '#mission co10_Escape.Altis' })).status, 200);
      const event = await ws.next((m) => m.type === 'server_mission', 'the server_mission event', 20_000);
      assert.deepEqual(event.data, { mission: 'co10_Escape.Altis' });
      assert.equal((await listed(s.id)).mission, 'co10_Escape.Altis');
      assert.equal((await api('GET', `/servers/${s.id}`)).body.data.mission, 'co10_Escape.Altis');
      assert.equal((await api('POST', `/servers/${s.id}/stop`)).status, 200);
      assert.equal((await listed(s.id)).mission, null, 'no mission without a game');
    } finally {
      ws.close();
      await killGames(suite.h);
    }
  });
});
