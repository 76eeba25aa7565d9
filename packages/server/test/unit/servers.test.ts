import { unitContainer, type UnitContainer } from './container.js';
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, SYSTEM_ACTOR, type CreateServerRequest } from '@garrison/core';
import { ServerService } from '../../src/servers/service.js';

const EXE = '/opt/gamea/gameaserver_x64.exe';

/** Rejects with an ApiError of `code` whose message matches `message`. */
async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

describe('server records: validation and conflicts', () => {
  let u: UnitContainer;
  let servers: ServerService;
  const create = (fields: Partial<CreateServerRequest> & { game_port: number }) =>
    servers.create({ name: 'Alpha', exe_path: EXE, ...fields }, SYSTEM_ACTOR);
  beforeEach(async () => {
    u = await unitContainer();
    servers = u.resolve(ServerService);
  });
  afterEach(() => u.close());

  it('gives remote admin the game port + 3 unless told, and makes the server its folder', async () => {
    const server = await create({ game_port: 2302 });
    assert.deepEqual([server.game_port, server.rcon_port, server.status], [2302, 2305, 'stopped']);
    assert.ok(existsSync(join(u.settings.dataDir, 'servers', String(server.id))), 'the server has its folder');
    await rejectsWith(create({ game_port: 65534 }), 'VALIDATION_ERROR', /game_port \+ 3 = 65537/);
  });

  it('refuses a port another server of the node uses, for its game or its remote admin', async () => {
    const alpha = await create({ game_port: 2302 });
    await rejectsWith(
      create({ name: 'Bravo', game_port: 2305, rcon_port: 2400 }),
      'PORT_IN_USE',
      new RegExp(`port 2305 is already used by server ${alpha.id} \\(Alpha\\)`),
    );
    await rejectsWith(create({ name: 'Bravo', game_port: 2400, rcon_port: 2400 }), 'PORT_IN_USE', /must differ/);
    const bravo = await create({ name: 'Bravo', game_port: 2402 });
    await rejectsWith(servers.update(bravo.id, { game_port: 2302 }, SYSTEM_ACTOR), 'PORT_IN_USE');
    const same = await servers.update(alpha.id, { game_port: 2302, name: 'Alpha 2' }, SYSTEM_ACTOR);
    assert.equal(same.name, 'Alpha 2', 'a server keeping its own ports clashes with no one');
  });

  it('lets one of two creates racing for a port have it', async () => {
    const results = await Promise.allSettled([create({ name: 'One', game_port: 2302 }), create({ name: 'Two', game_port: 2302 })]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal((refused.reason as ApiError).code, 'PORT_IN_USE');
  });

  it("refuses an executable the game does not name, or one inside the service's own folders", async () => {
    await rejectsWith(create({ game_port: 2302, exe_path: '/usr/bin/bash' }), 'EXE_NOT_ALLOWED', /"bash" is not allowed for gamea/);
    await rejectsWith(create({ game_port: 2302, exe_path: join(u.settings.dataDir, 'gameaserver_x64.exe') }), 'EXE_NOT_ALLOWED');
    await rejectsWith(create({ game_port: 2302, game_type: 'nosuchgame' }), 'GAME_TYPE_NOT_FOUND');
  });

  it('deletes only a stopped server, and its folder with it', async () => {
    const server = await create({ game_port: 2302 });
    await u.db.knex('servers').where({ id: server.id }).update({ status: 'running' });
    await rejectsWith(servers.delete(server.id, SYSTEM_ACTOR), 'SERVER_NOT_STOPPED', /is running; stop it before deleting/);
    await u.db.knex('servers').where({ id: server.id }).update({ status: 'stopped' });
    await servers.delete(server.id, SYSTEM_ACTOR);
    await rejectsWith(servers.get(server.id), 'NOT_FOUND');
    assert.equal(existsSync(join(u.settings.dataDir, 'servers', String(server.id))), false);
  });
});
