import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ADAPTER_API_VERSION, ApiError, SYSTEM_ACTOR, defineAdapter, type BanEntry, type BanFileEntry } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { BanService } from '../../src/bans/service.js';
import { RemoteAdminService } from '../../src/rcon/service.js';
import { serverContext } from '../../src/servers/context.js';

/** The game's remote admin: the commands the adapter's operations sent, answered at once. */
class FakeRemoteAdmin {
  readonly sent: string[] = [];
  async command(_serverId: number, command: string) {
    this.sent.push(command);
    return '';
  }
}

const STEAMID = /^STEAM_[01]:[01]:\d+$/i;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
// `banid 0 STEAM_0:1:5` in users.cfg, `addip 0 1.2.3.4` in ips.cfg: one file per identity kind, no reasons.
const LINE = /^(banid|addip)\s+(\d+)\s+(\S+)\s*$/;

/** A game that keeps each kind of ban in a file of its own, and bans in the running game's memory. */
const twoFiles = defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'twofiles', display_name: 'Two files', version: '1.0.0', schema_version: '1' },
  identities: [
    {
      kind: 'STEAMID',
      label: 'SteamID',
      example: 'STEAM_0:1:5',
      problem: (v: string) => (STEAMID.test(v) ? null : 'a SteamID ban needs a SteamID (STEAM_0:1:1234)'),
      normalize: (v: string) => v.trim().toUpperCase(),
    },
    {
      kind: 'IP',
      label: 'IP address',
      example: '192.0.2.1',
      address: true,
      problem: (v: string) => (IPV4.test(v) ? null : 'an IP ban needs an IPv4 address'),
      normalize: (v: string) => v.trim(),
    },
  ],
  capabilities: {
    process_config: { allowedExecutables: ['twofilesd'], launchArguments: () => [] },
    remote_admin: {
      connect: () => Promise.reject(new Error('not in this test')),
      target: () => null,
      listPlayers: async () => [],
      ban: async (run, ban: BanEntry) => {
        await run(ban.id.kind === 'IP' ? `addip 0 ${ban.id.value}` : `banid 0 ${ban.id.value}`);
      },
      unban: async (run, id) => {
        await run(id.kind === 'IP' ? `removeip ${id.value}` : `removeid ${id.value}`);
      },
    },
    ban_manager: {
      banFilePath: (ctx, kind) => join(ctx.serverDir, 'cfg', kind === 'IP' ? 'ips.cfg' : 'users.cfg'),
      parseBanLine(line: string): BanFileEntry | null {
        const m = LINE.exec(line.trim());
        if (!m) return null;
        const id = { kind: m[1] === 'addip' ? 'IP' : 'STEAMID', value: m[3] };
        return { id, reason: '', expires_at: null, key: `${m[1]} ${m[3]}` };
      },
      formatBanLine: (ban: BanEntry) => `${ban.id.kind === 'IP' ? 'addip' : 'banid'} 0 ${ban.id.value}`,
    },
  },
});

describe('bans of a game with one ban file per identity kind', () => {
  let u: UnitContainer;
  let bans: BanService;
  let remoteAdmin: FakeRemoteAdmin;
  let serverId: number;
  const path = async (kind: string) =>
    twoFiles.capabilities.ban_manager.banFilePath(serverContext(await u.resolve(ServerService).row(serverId), u.settings.dataDir), kind);
  const file = async (kind: string) => readFile(await path(kind), 'utf8');

  beforeEach(async () => {
    remoteAdmin = new FakeRemoteAdmin();
    u = await unitContainer({ adapters: [twoFiles], fakes: [[RemoteAdminService, remoteAdmin]] });
    bans = u.resolve(BanService);
    const input = { name: 'Two', game_type: 'twofiles', exe_path: '/opt/twofiles/twofilesd', game_port: 27015 };
    serverId = (await u.resolve(ServerService).create(input, SYSTEM_ACTOR)).id;
  });
  afterEach(() => u.close());

  it("validates by the game's kinds, the first being the default, and names them for a kind it lacks", async () => {
    const made = await bans.create(serverId, { player_uid: 'steam_0:1:77' }, SYSTEM_ACTOR);
    assert.deepEqual([made.guid, made.ban_type], ['STEAM_0:1:77', 'STEAMID']);
    await assert.rejects(
      bans.create(serverId, { player_uid: '192.0.2.9' }, SYSTEM_ACTOR),
      /player_uid': a SteamID ban needs a SteamID \(STEAM_0:1:1234\); this looks like an IP address: send ban_type: "IP"/,
    );
    await assert.rejects(
      bans.create(serverId, { player_uid: '192.0.2.9', ban_type: 'GUID' }, SYSTEM_ACTOR),
      (err: ApiError) => err.code === 'VALIDATION_ERROR' && /'ban_type': "GUID" .* STEAMID or IP/.test(err.message),
    );
  });

  it('writes each ban to its kind’s file, keeps the foreign lines, imports each file’s own bans, and tells the running game', async () => {
    // What the game and people wrote before: a comment, a ban of the other kind in the wrong file (not ours to read there).
    await mkdir(dirname(await path('IP')), { recursive: true });
    await writeFile(await path('STEAMID'), '// users\r\nbanid 0 STEAM_0:0:1\r\naddip 0 203.0.113.5\r\n');
    await writeFile(await path('IP'), 'addip 0 203.0.113.6\n');
    await u.db.knex('servers').where({ id: serverId }).update({ status: 'running' });

    const steam = await bans.create(serverId, { player_uid: 'STEAM_0:1:42' }, SYSTEM_ACTOR);
    const ip = await bans.create(serverId, { player_uid: '198.51.100.4', ban_type: 'IP' }, SYSTEM_ACTOR);
    assert.equal(await file('STEAMID'), '// users\r\nbanid 0 STEAM_0:0:1\r\naddip 0 203.0.113.5\r\nbanid 0 STEAM_0:1:42\r\n');
    assert.equal(await file('IP'), 'addip 0 203.0.113.6\naddip 0 198.51.100.4\n');
    assert.deepEqual(remoteAdmin.sent, ['banid 0 STEAM_0:1:42', 'addip 0 198.51.100.4'], 'the game told of each ban, in its kind');

    const listed = await bans.list(serverId, {});
    const byGuid = Object.fromEntries(listed.map((b) => [b.guid, [b.ban_type, b.source, b.banned_by]]));
    assert.deepEqual(byGuid, {
      'STEAM_0:0:1': ['STEAMID', 'file', 'users.cfg'],
      '203.0.113.6': ['IP', 'file', 'ips.cfg'],
      'STEAM_0:1:42': ['STEAMID', 'api', 'system'],
      '198.51.100.4': ['IP', 'api', 'system'],
    });

    await bans.revoke(serverId, steam.id, SYSTEM_ACTOR);
    await bans.revoke(serverId, ip.id, SYSTEM_ACTOR);
    assert.equal(await file('STEAMID'), '// users\r\nbanid 0 STEAM_0:0:1\r\naddip 0 203.0.113.5\r\n');
    assert.equal(await file('IP'), 'addip 0 203.0.113.6\n');
    assert.deepEqual(remoteAdmin.sent.slice(2), ['removeid STEAM_0:1:42', 'removeip 198.51.100.4']);
  });
});
