import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freeGamePorts, installFakeGamebTemp, waitFor } from '@garrison/testkit';
import { expectError, startHarness, type Harness } from './helpers.js';
import { FAST_SUPERVISION, killGames, statusBecomes } from './games.js';

// The fake exits with this process; it prints (and compares in bans) STEAM_1, as the newer engine branches do.
process.env.GAMEB_FAKE_WATCH_PID = String(process.pid);
process.env.GAMEB_FAKE_UNIVERSE = '1';

const PLAYER = 'STEAM_1:1:1234';

// The second game's bans through the service: one ban per player in the game's memory, SteamIDs compared with their universe digit.
describe('a gameb server through the service, on an engine that prints STEAM_1', { timeout: 120_000 }, () => {
  let h: Harness;
  let fake: Awaited<ReturnType<typeof installFakeGamebTemp>>;
  let serverId = 0;
  const api = (method: string, path: string, body?: unknown) => h.api(method, path, { token: h.adminToken, body });
  const command = async (text: string) =>
    (await api('POST', `/servers/${serverId}/rcon/command`, { command: text })).body.data?.response as string;
  /** Whether the game refuses the player for his SteamID; a player let in goes again. */
  const refused = async () => {
    const answer = await command(`testkit.join Alice ${PLAYER} 10.0.0.9`);
    const joined = /joined userid (\d+)/.exec(answer ?? '');
    if (joined) await command(`testkit.leave ${joined[1]}`);
    assert.ok(joined || /banned from this server \(STEAM ID\)/.test(answer), answer);
    return !joined;
  };
  const ban = async (player_uid: string, duration_minutes: number) => {
    const res = await api('POST', `/servers/${serverId}/bans`, { player_uid, ban_type: 'STEAMID', reason: 'test', duration_minutes });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id as number;
  };
  const start = async () => {
    assert.equal((await api('POST', `/servers/${serverId}/start`)).status, 200);
    await statusBecomes(h, serverId, 'running', 60_000);
    await waitFor(async () => typeof (await command('status')) === 'string', { timeoutMs: 30_000, what: 'RCON answering' });
  };

  before(async () => {
    fake = await installFakeGamebTemp();
    await writeFile(join(fake.dir, 'maps', 'de_dust2.bsp'), 'VBSP');
    h = await startHarness(FAST_SUPERVISION);
    const { game_port } = await freeGamePorts();
    const res = await api('POST', '/servers', { name: 'Bans B', game_type: 'gameb', exe_path: fake.exePath, game_port });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    serverId = res.body.data.id;
  });
  after(async () => {
    await killGames(h);
    await h.close();
    await fake.remove();
  });

  it('takes remote admin on the game port: rcon_port is the game port, follows it, and no other is taken', async () => {
    const made = (await api('GET', `/servers/${serverId}`)).body.data;
    assert.equal(made.rcon_port, made.game_port);
    const game = (await api('GET', '/games/gameb')).body.data;
    assert.equal(game.remote_admin_port, 'game');
    const { game_port } = await freeGamePorts();
    expectError(
      await api('POST', '/servers', { name: 'Other B', game_type: 'gameb', exe_path: fake.exePath, game_port, rcon_port: game_port + 1 }),
      400,
      'VALIDATION_ERROR',
    );
    const moved = await api('PUT', `/servers/${serverId}`, { game_port });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual([moved.body.data.game_port, moved.body.data.rcon_port], [game_port, game_port]);
  });

  it('imports a server that ran without Garrison, its RCON on its game port', async () => {
    const other = await installFakeGamebTemp();
    try {
      await mkdir(join(other.dir, 'cfg'), { recursive: true });
      await writeFile(join(other.dir, 'cfg', 'server.cfg'), 'hostname "Imported B"\nrcon_password "old-secret"\n');
      const { game_port } = await freeGamePorts();
      const res = await api('POST', '/servers/import', {
        exe_path: other.exePath,
        command_line: `-console -port ${game_port} +maxplayers 12 +map de_dust2 +exec server.cfg`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const made = res.body.data.server;
      assert.deepEqual([made.game_type, made.game_port, made.rcon_port], ['gameb', game_port, game_port]);
      assert.equal((await api('DELETE', `/servers/${made.id}`)).status, 204);
    } finally {
      await other.remove();
    }
  });

  it("imports both ban lists of an installation another server shares: each copied to the server's own names, the bans taken", async () => {
    const shared = await installFakeGamebTemp();
    try {
      const users = 'banid 0 STEAM_0:1:1234\n// kept as it is\n';
      const ips = 'addip 0 192.0.2.7\naddip 0 192.0.2.8\n';
      await mkdir(join(shared.dir, 'cfg'), { recursive: true });
      await writeFile(join(shared.dir, 'cfg', 'banned_user.cfg'), users);
      await writeFile(join(shared.dir, 'cfg', 'banned_ip.cfg'), ips);
      const first = await api('POST', '/servers', {
        name: 'First B',
        game_type: 'gameb',
        exe_path: shared.exePath,
        game_port: (await freeGamePorts()).game_port,
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const { game_port } = await freeGamePorts();
      const res = await api('POST', '/servers/import', {
        exe_path: shared.exePath,
        command_line: `-console -port ${game_port} +map de_dust2`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body.data.bans, { count: 3, file: join(shared.dir, 'cfg', 'banned_user.cfg') });
      const made = res.body.data.server;
      // The second server on the installation: its ban lists have names of their own, each a copy of the installation's.
      const own = (await readdir(join(shared.dir, 'cfg'))).filter((f) => /^banned_(user|ip)_.+\.cfg$/.test(f)).sort();
      assert.equal(own.length, 2, own.join(', '));
      assert.deepEqual(
        [await readFile(join(shared.dir, 'cfg', own[0]), 'utf8'), await readFile(join(shared.dir, 'cfg', own[1]), 'utf8')],
        [ips, users],
      );
      const bans = (await api('GET', `/servers/${made.id}/bans`)).body.data as { ban_type: string; guid: string; source: string }[];
      assert.deepEqual(bans.map((b) => `${b.ban_type} ${b.guid}`).sort(), ['IP 192.0.2.7', 'IP 192.0.2.8', 'STEAMID STEAM_0:1:1234']);
      for (const id of [made.id, first.body.data.id]) assert.equal((await api('DELETE', `/servers/${id}`)).status, 204);
    } finally {
      await shared.remove();
    }
  });

  it('holds the strongest ban the file has, and lifts a player’s last one only', async () => {
    await start();
    assert.equal(await refused(), false);
    const permanent = await ban('[U:1:2469]', 0);
    await waitFor(refused, { what: 'the permanent ban held by the game' });
    const timed = await ban(PLAYER, 30);
    assert.equal(await refused(), true);

    // The permanent ban lifted: the timed one of the same player is still in the file, and the game holds it.
    assert.equal((await api('DELETE', `/servers/${serverId}/bans/${permanent}`)).status, 200);
    assert.equal(await refused(), true);
    assert.match(await command('listid'), /STEAM_1:1:1234 : \d+\.\d+ min/);
    assert.equal((await api('DELETE', `/servers/${serverId}/bans/${timed}`)).status, 200);
    await waitFor(async () => !(await refused()), { what: 'the last ban lifted' });
  });

  it('follows the game log into the new file each map starts', async () => {
    await writeFile(join(fake.dir, 'maps', 'cs_office.bsp'), 'VBSP');
    const offsets = async () =>
      JSON.parse(await readFile(join(h.dataDir, 'servers', String(serverId), 'log-offsets.json'), 'utf8').catch(() => '{}')) as {
        gameLog?: { path: string } | null;
      };
    const first = await waitFor(async () => (await offsets()).gameLog?.path, { what: 'the game log followed' });
    await command('changelevel cs_office');
    const next = await waitFor(
      async () => {
        await command(`testkit.log still here`); // a write, so that the read position is saved again
        const path = (await offsets()).gameLog?.path;
        return path !== first && path;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the new log file followed' },
    );
    assert.match(next, /logs\/L\d{7}\.log$/);
  });

  it('keeps a ban over a restart: the game reads it from its ban file', async () => {
    await ban('STEAM_0:1:1234', 0);
    await waitFor(refused, { what: 'the ban held by the game' });
    const file = await readFile(join(fake.dir, 'cfg', 'banned_user.cfg'), 'utf8');
    assert.match(file, /^banid 0 STEAM_0:1:1234;banid 0 STEAM_1:1:1234$/m);
    assert.equal((await api('POST', `/servers/${serverId}/stop`)).status, 200);
    await statusBecomes(h, serverId, 'stopped', 30_000);
    await start();
    assert.equal(await refused(), true);
  });
});
