import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, killGames, statusBecomes } from './games.js';

/** Names as communities write them (file names seen on real servers). */
const MISSIONS = ['[55-2hc]warfare_v2.chernarus', 'CPC-TRAINING[10]-Mare.tanoa', "Liberation(1.0)+ACE,Dev's.Altis", 'co10_Escape.Altis'];
const MODS = ['@VULTURE[Tech Mod]', '@CUP Terrains - Core', '@ace.x64'];

describe('names as communities write them', () => {
  const suite = gameService(FAST_SUPERVISION, async (fake) => {
    for (const folder of [...MODS, '@a;b']) await mkdir(join(fake.dir, folder), { recursive: true });
  });
  const api = (method: string, path: string, body?: unknown, token = suite.h.adminToken) => suite.h.api(method, path, { token, body });
  const upload = async (id: number, filename: string) => {
    const form = new FormData();
    form.append('file', new Blob(['pbo']), filename);
    const res = await fetch(`${suite.h.url}/api/servers/${id}/missions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.h.adminToken}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any, headers: res.headers };
  };
  const rotation = async (id: number, missions: unknown) => {
    const { config_version } = (await api('GET', `/servers/${id}/missions/rotation`)).body.data;
    return api('PUT', `/servers/${id}/missions/rotation`, { missions, config_version });
  };

  it('uploads, lists, rotates, plays and deletes missions whose names carry brackets and the like', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    for (const name of MISSIONS) {
      const res = await upload(s.id, `${name}.pbo`);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.mission_name, name);
      assert.equal(res.body.data.warning, undefined);
    }
    const listed = (await api('GET', `/servers/${s.id}/missions`)).body.data.missions.map((m: { name: string }) => m.name);
    assert.deepEqual([...listed].sort(), [...MISSIONS].sort());

    // Any case, stored capitalised; no difficulty at all is the default "".
    const set = await rotation(s.id, [
      { name: MISSIONS[0], difficulty: 'regular' },
      { name: MISSIONS[1], difficulty: 'VETERAN' },
      { name: MISSIONS[2] },
    ]);
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body.data.missions, [
      { name: MISSIONS[0], difficulty: 'Regular' },
      { name: MISSIONS[1], difficulty: 'Veteran' },
      { name: MISSIONS[2], difficulty: '' },
    ]);
    const preview = (await api('GET', `/servers/${s.id}/config/preview`)).body.data['server.cfg'] as string;
    assert.match(preview, /template = "\[55-2hc\]warfare_v2\.chernarus";\s+difficulty = "Regular";/);
    assert.match(preview, /template = "Liberation\(1\.0\)\+ACE,Dev's\.Altis";/);

    // The game plays one by #mission.
    assert.equal((await api('POST', `/servers/${s.id}/start`)).status, 200);
    await statusBecomes(suite.h, s.id, 'running');
    try {
      const played = await api('POST', `/servers/${s.id}/rcon/command`, { command: `#mission ${MISSIONS[1]} veteran` });
      assert.equal(played.status, 200, JSON.stringify(played.body));
      await waitFor(
        async () =>
          (await api('GET', `/servers/${s.id}/logs?search=${encodeURIComponent(`Mission ${MISSIONS[1]} read from bank`)}`)).body.data
            .total === 1,
        { what: 'the game to load the mission' },
      );
    } finally {
      await api('POST', `/servers/${s.id}/kill`);
      await killGames(suite.h);
    }
    assert.equal((await api('DELETE', `/servers/${s.id}/missions/${encodeURIComponent(`${MISSIONS[3]}.pbo`)}`)).status, 200);
    expectError(await api('DELETE', `/servers/${s.id}/missions/${encodeURIComponent(`${MISSIONS[0]}.pbo`)}`), 409, 'MISSION_IN_ROTATION');
  });

  it('refuses the same names everywhere with 400, naming the character', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const space = expectError(await upload(s.id, 'my mission.Altis.pbo'), 400, 'ADAPTER_ERROR');
    assert.match(space.message, /cannot contain U\+0020/);
    const inRotation = expectError(await rotation(s.id, [{ name: 'my mission.Altis', difficulty: '' }]), 400, 'VALIDATION_ERROR');
    assert.match(inRotation.message, /^missions\[0\]\.name: a mission name cannot contain U\+0020/);
    assert.match(expectError(await rotation(s.id, [{ name: 'a"b.Altis' }]), 400, 'VALIDATION_ERROR').message, /cannot contain "\\""/);
    assert.match(expectError(await upload(s.id, 'a:b.Altis.pbo'), 400, 'ADAPTER_ERROR').message, /cannot contain ":"/);
    assert.match(
      expectError(await api('DELETE', `/servers/${s.id}/missions/${encodeURIComponent('a:b.Altis.pbo')}`), 400, 'VALIDATION_ERROR').message,
      /filename'?: a mission name cannot contain ":"/,
    );
    assert.match(expectError(await rotation(s.id, [{ name: 'noterrain' }]), 400, 'VALIDATION_ERROR').message, /terrain part/);
    assert.match(
      expectError(await rotation(s.id, [{ name: 'x.Altis', difficulty: 'hard' }]), 400, 'VALIDATION_ERROR').message,
      /^missions\[0\]\.difficulty: "hard"/,
    );
    // #mission goes through the same rule; the server need not even run for that answer.
    assert.match(
      expectError(await api('POST', `/servers/${s.id}/rcon/command`, { command: '#mission a:b.Altis' }), 400, 'VALIDATION_ERROR').message,
      /cannot contain ":"/,
    );
    assert.match(
      expectError(await api('POST', `/servers/${s.id}/rcon/command`, { command: '#mission x.Altis hard' }), 400, 'VALIDATION_ERROR')
        .message,
      /"hard" is no difficulty/,
    );
    assert.deepEqual(
      (await readdir(join(suite.fake.dir, 'mpmissions'))).filter((f) => f.includes('mission ') || f.includes(':')),
      [],
    );
  });

  it('accepts a version where the terrain goes, and says how the game will read it', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const res = await upload(s.id, 'mission_v2.0.pbo');
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.terrain, '0');
    assert.match(res.body.data.warning, /terrain of mission_v2\.0 as "0"/);
    const listed = (await api('GET', `/servers/${s.id}/missions`)).body.data.missions.find(
      (m: { name: string }) => m.name === 'mission_v2.0',
    );
    assert.match(listed.warning, /version number/);
  });

  it('enables mod folders with brackets, spaces and dots, and the game gets each whole', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const wanted = [
      { name: MODS[1], is_server_mod: false },
      { name: MODS[2], is_server_mod: false },
      { name: MODS[0], is_server_mod: true },
    ];
    const res = await api('PUT', `/servers/${s.id}/mods/enabled`, { mods: wanted });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.enabled_mods, wanted);
    const preview = (await api('GET', `/servers/${s.id}/config/preview`)).body.data;
    assert.equal(preview['-mod'], '@CUP Terrains - Core;@ace.x64');
    assert.equal(preview['-serverMod'], '@VULTURE[Tech Mod]');

    assert.equal((await api('POST', `/servers/${s.id}/start`)).status, 200);
    try {
      await statusBecomes(suite.h, s.id, 'running');
      const loaded = await waitFor(
        async () => {
          const lines = (await api('GET', `/servers/${s.id}/logs?search=mod%20loaded`)).body.data.logs.map(
            (l: { message: string }) => l.message,
          );
          return lines.length === 3 && lines;
        },
        { what: 'the game to report its mods' },
      );
      assert.deepEqual([...loaded].sort(), [
        'Mod loaded: @CUP Terrains - Core',
        'Mod loaded: @ace.x64',
        'Server mod loaded: @VULTURE[Tech Mod]',
      ]);
    } finally {
      await api('POST', `/servers/${s.id}/kill`);
      await killGames(suite.h);
    }

    // A name that cannot be a mod folder in the list: refused with the field and why, even if such a folder exists.
    const semicolon = expectError(
      await api('PUT', `/servers/${s.id}/mods/enabled`, { mods: [{ name: '@a;b', is_server_mod: false }] }),
      400,
      'VALIDATION_ERROR',
    );
    assert.match(semicolon.message, /^mods\[0\]\.name: "@a;b" cannot contain ";"/);
    const noAt = expectError(
      await api('PUT', `/servers/${s.id}/mods/enabled`, {
        mods: [
          { name: MODS[2], is_server_mod: false },
          { name: 'ace', is_server_mod: false },
        ],
      }),
      400,
      'VALIDATION_ERROR',
    );
    assert.match(noAt.message, /^mods\[1\]\.name: "ace" must be a mod folder name/);
    await writeFile(join(suite.fake.dir, '@not-a-folder'), 'a file');
    assert.match(
      expectError(
        await api('PUT', `/servers/${s.id}/mods/enabled`, { mods: [{ name: '@not-a-folder', is_server_mod: false }] }),
        400,
        'VALIDATION_ERROR',
      ).message,
      /no such mod folder/,
    );
  });
});
