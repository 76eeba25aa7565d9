import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectError, withDatabase } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, killGames } from './games.js';

describe('mods', () => {
  const suite = gameService(FAST_SUPERVISION, async (fake) => {
    for (const folder of ['@CBA_A3', '@ace', 'notamod']) await mkdir(join(fake.dir, folder), { recursive: true });
  });

  const list = (id: number) => suite.h.api('GET', `/servers/${id}/mods`, { token: suite.h.viewerToken }).then((r) => r.body.data);
  const enable = (id: number, mods: unknown, token = suite.h.adminToken) =>
    suite.h.api('PUT', `/servers/${id}/mods/enabled`, { token, body: { mods } });

  it('lists the @ folders, replaces the enabled list whole, and refuses unknown mods', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const before = await list(s.id);
    assert.equal(before.server_id, s.id);
    assert.equal(before.enabled_count, 0);
    assert.deepEqual(
      before.mods,
      [
        { name: '@ace', folder_path: join(suite.fake.dir, '@ace'), enabled: false, is_server_mod: false, source: 'local' },
        { name: '@CBA_A3', folder_path: join(suite.fake.dir, '@CBA_A3'), enabled: false, is_server_mod: false, source: 'local' },
      ],
      'in the order people read names: case aside',
    );
    const wanted = [
      { name: '@ace', is_server_mod: false },
      { name: '@CBA_A3', is_server_mod: true },
    ];
    const res = await enable(s.id, wanted);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.enabled_mods, wanted);
    assert.equal(typeof res.body.data.message, 'string');
    const after = await list(s.id);
    assert.equal(after.enabled_count, 2);
    assert.deepEqual(
      after.mods.map((m: { name: string; enabled: boolean; is_server_mod: boolean }) => [m.name, m.enabled, m.is_server_mod]),
      [
        ['@ace', true, false],
        ['@CBA_A3', true, true],
      ],
    );

    expectError(await enable(s.id, [{ name: '@missing', is_server_mod: false }]), 400, 'VALIDATION_ERROR');
    expectError(await enable(s.id, [{ name: 'notamod', is_server_mod: false }]), 400, 'VALIDATION_ERROR');
    expectError(
      await enable(s.id, [
        { name: '@ace', is_server_mod: false },
        { name: '@ace', is_server_mod: true },
      ]),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await enable(s.id, ['@ace']), 400, 'VALIDATION_ERROR');
    expectError(await enable(s.id, [], suite.h.viewerToken), 403, 'FORBIDDEN');
    assert.equal((await enable(s.id, [])).status, 200);
    assert.equal((await list(s.id)).enabled_count, 0);
  });

  it('reads the older bare list of names, as client mods', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    await withDatabase(suite.h, async (knex) => {
      const row = await knex('config_sections').where({ server_id: s.id, section: 'launch' }).first();
      await knex('config_sections')
        .where({ id: row.id })
        .update({ data: JSON.stringify({ ...JSON.parse(row.data), mods: ['@ace'] }) });
    });
    const mods = (await list(s.id)).mods;
    assert.deepEqual(
      mods.find((m: { name: string }) => m.name === '@ace'),
      { name: '@ace', folder_path: join(suite.fake.dir, '@ace'), enabled: true, is_server_mod: false, source: 'local' },
    );
  });

  it('serialises concurrent changes: each lands whole or answers VERSION_CONFLICT', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const lists = Array.from({ length: 8 }, (_, i) => [{ name: i % 2 ? '@ace' : '@CBA_A3', is_server_mod: i % 3 === 0 }]);
    const results = await Promise.all(lists.map((l) => enable(s.id, l)));
    for (const r of results)
      assert.ok(r.status === 200 || (r.status === 409 && r.body.error.code === 'VERSION_CONFLICT'), JSON.stringify(r.body));
    const final = (await list(s.id)).mods
      .filter((m: { enabled: boolean }) => m.enabled)
      .map(({ name, is_server_mod }: { name: string; is_server_mod: boolean }) => ({ name, is_server_mod }));
    assert.ok(
      lists.some((l) => JSON.stringify(l) === JSON.stringify(final)),
      'the final list is one that was sent',
    );
  });

  it('passes the enabled mods to the game at the next start: -mod= and -serverMod=, shown in the preview', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const preview = async () => (await suite.h.api('GET', `/servers/${s.id}/config/preview`, { token: suite.h.adminToken })).body.data;
    const files = ['BEServer_x64.cfg', 'basic.cfg', 'server.GameaProfile', 'server.cfg'];
    assert.deepEqual(Object.keys(await preview()).sort(), files, 'no mod arguments while none is enabled');
    await enable(s.id, [
      { name: '@ace', is_server_mod: false },
      { name: '@CBA_A3', is_server_mod: true },
    ]);
    const shown = await preview();
    assert.deepEqual([shown['-mod'], shown['-serverMod']], ['@ace', '@CBA_A3']);
    assert.deepEqual(
      Object.keys(shown)
        .filter((k) => !files.includes(k))
        .sort(),
      ['-mod', '-serverMod'],
    );
    try {
      const started = await suite.h.api('POST', `/servers/${s.id}/start`, { token: suite.h.adminToken });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const args = (await readFile(`/proc/${started.body.data.pid}/cmdline`, 'utf8')).split('\0');
      assert.ok(args.includes('-mod=@ace'), args.join(' '));
      assert.ok(args.includes('-serverMod=@CBA_A3'), args.join(' '));
    } finally {
      await killGames(suite.h);
    }
  });
});
