import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import gamea from '@garrison/adapter-gamea';
import { ApiError, SYSTEM_ACTOR } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';
import { BanService } from '../../src/bans/service.js';
import { RemoteAdminService } from '../../src/rcon/service.js';
import { serverContext } from '../../src/servers/context.js';

const GUID = '0123456789abcdef0123456789abcdef';
const MINUTE = 60_000;

/** The game's remote admin: the commands it was sent, answered at once. */
class FakeRemoteAdmin {
  readonly sent: { serverId: number; command: string }[] = [];
  async command(serverId: number, command: string) {
    this.sent.push({ serverId, command });
    return '';
  }
}

describe('bans: validation, expiry and the ban file', () => {
  let u: UnitContainer;
  let bans: BanService;
  let remoteAdmin: FakeRemoteAdmin;
  let serverId: number;
  const banFile = async () => {
    const row = await u.resolve(ServerService).row(serverId);
    // No file yet: no bans written.
    return readFile(gamea.capabilities.ban_manager.banFilePath(serverContext(row, u.settings.dataDir), 'GUID'), 'utf8').catch(
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return '';
        throw err;
      },
    );
  };
  const inForce = async () => (await bans.list(serverId, { active_only: true })).map((b) => b.guid);
  beforeEach(async () => {
    remoteAdmin = new FakeRemoteAdmin();
    u = await unitContainer({ fakes: [[RemoteAdminService, remoteAdmin]] });
    bans = u.resolve(BanService);
    serverId = (
      await u.resolve(ServerService).create({ name: 'Alpha', exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 2302 }, SYSTEM_ACTOR)
    ).id;
  });
  afterEach(() => u.close());

  it('refuses a uid that is not of its ban type, with the likely fix', async () => {
    const refused = (uid: string, type?: 'GUID' | 'IP') =>
      assert.rejects(bans.create(serverId, { player_uid: uid, ...(type ? { ban_type: type } : {}) }, SYSTEM_ACTOR), ApiError);
    await refused('not-a-guid');
    await assert.rejects(bans.create(serverId, { player_uid: '10.0.0.7' }, SYSTEM_ACTOR), /looks like an IP address: send ban_type: "IP"/);
    await refused(GUID, 'IP');
    const ip = await bans.create(serverId, { player_uid: '10.0.0.7', ban_type: 'IP' }, SYSTEM_ACTOR);
    assert.equal(ip.guid, '10.0.0.7');
    const upper = await bans.create(serverId, { player_uid: ` ${GUID.toUpperCase()} ` }, SYSTEM_ACTOR);
    assert.equal(upper.guid, GUID, 'a GUID is kept trimmed, in lower case');
  });

  it("ends a timed ban at its time, in the list and in the game's ban file", async () => {
    const timed = await bans.create(serverId, { player_uid: GUID, duration_minutes: 60, reason: 'spawn camping' }, SYSTEM_ACTOR);
    assert.equal(timed.expires_at, new Date(u.clock.now() + 60 * MINUTE).toISOString());
    assert.match(await banFile(), new RegExp(`^${GUID} \\d+ spawn camping`, 'm'));

    await u.clock.advance(59 * MINUTE);
    await bans.passAll();
    assert.deepEqual(await inForce(), [GUID]);
    assert.match(await banFile(), new RegExp(GUID));

    await u.clock.advance(2 * MINUTE);
    assert.deepEqual(await inForce(), [], 'past its expiry the ban is no longer in force');
    assert.equal((await bans.list(serverId, { active_only: false })).length, 1, 'but stays in the history');
    await bans.passAll();
    assert.doesNotMatch(await banFile(), new RegExp(GUID), 'the periodic pass takes its line out of the file');
  });

  it('has a running game reload its ban file after a change, and a stopped one not', async () => {
    await bans.create(serverId, { player_uid: GUID }, SYSTEM_ACTOR);
    assert.deepEqual(remoteAdmin.sent, [], 'a stopped game reads the file when it starts');
    await u.db.knex('servers').where({ id: serverId }).update({ status: 'running' });
    const ban = await bans.create(serverId, { player_uid: 'fedcba9876543210fedcba9876543210' }, SYSTEM_ACTOR);
    assert.deepEqual(remoteAdmin.sent, [{ serverId, command: 'loadBans' }]);
    await bans.revoke(serverId, ban.id, SYSTEM_ACTOR);
    assert.equal(remoteAdmin.sent.length, 2);
    assert.doesNotMatch(await banFile(), /fedcba/);
    await assert.rejects(bans.revoke(serverId, ban.id + 100, SYSTEM_ACTOR), (err: ApiError) => err.code === 'NOT_FOUND');
  });
});
