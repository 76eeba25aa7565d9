import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeGamePorts, waitFor } from '@garrison/testkit';
import { expectError, multipart, startHarness, type Harness } from './helpers.js';
import { killGames, statusBecomes } from './games.js';

// Adding a game touches no existing file: a tiny third game (its own admin protocol, identity kind, ban
// file, levels with a mode, logs) loaded as a plugin, run end to end through the unchanged service.
const THIRD = fileURLToPath(new URL('./fixtures/third-game', import.meta.url));

describe('a third game, added as a package alone', () => {
  let h: Harness;
  let install: string;
  let id: number;
  const api = (method: string, path: string, body?: unknown) => h.api(method, `/servers/${id}${path}`, { token: h.adminToken, body });
  const rcon = async (command: string) => (await api('POST', '/rcon/command', { command })).body.data?.response as string;
  const players = async () => (await api('GET', '/players')).body.data.players as { slot_id: string; name: string; guid: string }[];
  const playersBecome = (count: number) =>
    waitFor(async () => ((await players()).length === count ? players() : false), { what: `${count} players` });

  before(async () => {
    install = await mkdtemp(join(tmpdir(), 'garrison-gamec-'));
    await copyFile(join(THIRD, 'game.mjs'), join(install, 'gamec_server'));
    await chmod(join(install, 'gamec_server'), 0o755);
    await mkdir(join(install, 'levels'));
    h = await startHarness({ plugins: [THIRD], playersPollMs: 200, stopTimeoutMs: 5000 });
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await rm(install, { recursive: true, force: true });
  });

  it('is described by GET /games/{game} from its declarations', async () => {
    const game = (await h.api('GET', '/games/gamec')).body.data;
    assert.deepEqual(
      game.identity_kinds.map((k: { kind: string }) => k.kind),
      ['NICK', 'IP'],
    );
    assert.deepEqual([...game.remote_admin_operations].sort(), ['ban', 'command', 'kick', 'players', 'say', 'unban']);
    assert.equal(game.missions.extension, '.lvl');
    assert.equal(game.missions.label, 'Level');
    assert.deepEqual(
      game.missions.rotation_options.properties.mode.anyOf.map((m: { const: string }) => m.const),
      ['coop', 'pvp'],
    );
    assert.equal(game.presentation.example_exe_path, '/srv/gamec/gamec_server');
    assert.equal(game.steam, null, 'a game that declares no Steam apps');
  });

  it('runs a server: players, kick, ban by its own identity kind, say, levels with their options, logs, a clean stop', async () => {
    const created = await h.api('POST', '/servers', {
      token: h.adminToken,
      body: { name: 'Third', game_type: 'gamec', exe_path: join(install, 'gamec_server'), ...(await freeGamePorts()) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    id = created.body.data.id;
    assert.equal((await api('POST', '/start')).status, 200);
    await statusBecomes(h, id, 'running');
    await waitFor(async () => (await api('POST', '/rcon/command', { command: 'who' })).status === 200, { what: 'the admin connection' });

    assert.match(await rcon('join Alice alice 10.0.0.5'), /joined slot 1/);
    assert.match(await rcon('join Bob bob 10.0.0.6'), /joined slot 2/);
    const two = await playersBecome(2);
    assert.deepEqual(two.map((p) => [p.name, p.guid]).sort(), [
      ['Alice', 'alice'],
      ['Bob', 'bob'],
    ]);

    assert.equal((await api('POST', `/players/${two.find((p) => p.name === 'Bob')!.slot_id}/kick`, { reason: 'afk' })).status, 200);
    await playersBecome(1);

    expectError(await api('POST', '/bans', { player_uid: 'a'.repeat(32), ban_type: 'GUID', reason: 'x' }), 400, 'VALIDATION_ERROR');
    expectError(await api('POST', '/bans', { player_uid: 'x!', ban_type: 'NICK', reason: 'x' }), 400, 'VALIDATION_ERROR');
    const ban = await api('POST', '/bans', { player_uid: 'Alice', reason: 'griefing' });
    assert.equal(ban.status, 201, JSON.stringify(ban.body));
    assert.equal(ban.body.data.ban_type, 'NICK', 'the first declared kind is the default');
    assert.equal(ban.body.data.guid, 'alice', 'stored in the kind’s form');
    assert.equal(await readFile(join(h.dataDir, 'servers', String(id), 'bans.list'), 'utf8'), 'NICK alice # griefing\n');
    await playersBecome(0);
    assert.match(await rcon('join Alice alice 10.0.0.5'), /refused alice: banned/);

    assert.equal((await api('POST', '/rcon/say', { message: 'hello all' })).status, 200);

    const upload = multipart([{ name: 'file', filename: 'forest_2.lvl', content: 'level data' }]);
    const uploaded = await fetch(`${h.url}/api/servers/${id}/missions/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': upload.type },
      body: upload.body,
    });
    assert.equal(uploaded.status, 201, await uploaded.text());
    const listed = (await api('GET', '/missions')).body.data.missions;
    assert.equal(
      listed.find((m: { name: string }) => m.name === 'forest_2')?.size_bytes,
      'level data'.length,
      'a part takes no field’s place',
    );
    assert.equal(await readFile(join(install, 'levels', 'forest_2.lvl'), 'utf8'), 'level data');
    const { config_version } = (await api('GET', '/missions/rotation')).body.data;
    const setRotation = (missions: unknown[]) => api('PUT', '/missions/rotation', { missions, config_version });
    expectError(await setRotation([{ name: 'forest_2', difficulty: 'Veteran' }]), 400, 'VALIDATION_ERROR');
    const rotation = await setRotation([{ name: 'forest_2', mode: 'PVP' }]);
    assert.equal(rotation.status, 200, JSON.stringify(rotation.body));
    assert.deepEqual(rotation.body.data.missions, [{ name: 'forest_2', mode: 'pvp' }], 'options in the stored form the game gives them');

    await waitFor(
      async () => {
        const logs = (await api('GET', '/logs?limit=100')).body.data;
        const lines = logs.logs as { message: string }[];
        return lines.some((l) => l.message === 'say: hello all');
      },
      { what: 'the game’s log line of the message said' },
    );

    assert.equal((await api('POST', '/stop')).status, 200);
    await statusBecomes(h, id, 'stopped');
  });
});
