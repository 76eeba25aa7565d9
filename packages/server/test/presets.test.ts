import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import gamea from '@garrison/adapter-gamea';
import { expectError } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer } from './games.js';

const INSTALLATION = new URL('./fixtures/installation/', import.meta.url).pathname;
const PRESETS = new URL('./fixtures/presets/', import.meta.url).pathname;
const preset = (name: string) => readFile(join(PRESETS, name), 'utf8');

/**
 * Launcher presets in both of the launcher's forms (a named preset, the list of loaded mods) against the
 * @mod folders of fixtures/installation, whose meta.cpp and mod.cpp say their Workshop ids and names.
 */
describe('launcher presets', () => {
  const suite = gameService(FAST_SUPERVISION, async (fake) => {
    await cp(INSTALLATION, fake.dir, { recursive: true });
    await mkdir(join(fake.dir, '@tom_and_jerry'));
    await writeFile(join(fake.dir, '@tom_and_jerry', 'mod.cpp'), 'name = "Tom & Jerry\'s <Mod>";\n');
  });
  const h = () => suite.h;
  const send = (id: number, body: string, query = '', token = h().adminToken) =>
    h().api('POST', `/servers/${id}/mods/preset${query}`, { token, raw: body, headers: { 'content-type': 'text/html; charset=utf-8' } });
  /** The preset as the multipart part `file`, as a browser's form sends it. */
  const upload = async (id: number, content: string, query = '') => {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'text/html' }), 'preset.html');
    const response = await fetch(`${h().url}/api/servers/${id}/mods/preset${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h().adminToken}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };
  const enabled = async (id: number) =>
    (
      (await h().api('GET', `/servers/${id}/mods`, { token: h().viewerToken })).body.data.mods as {
        name: string;
        enabled: boolean;
        is_server_mod: boolean;
      }[]
    )
      .filter((m) => m.enabled)
      .map((m) => [m.name, m.is_server_mod]);

  it('reports what each mod folder says of itself', async () => {
    const s = await createGameServer(h(), suite.fake);
    const mods = (await h().api('GET', `/servers/${s.id}/mods`, { token: h().viewerToken })).body.data.mods;
    const byName = Object.fromEntries(mods.map((m: { name: string }) => [m.name, m]));
    assert.equal(byName['@CBA_A3'].workshop_id, '450814997');
    assert.equal(byName['@CBA_A3'].display_name, 'Community Base Addons v3.17.1', "mod.cpp's name before meta.cpp's");
    assert.equal(byName['@ace'].workshop_id, '463939057', 'CRLF files');
    assert.equal(byName['@AdvancedUrbanRappelling'].workshop_id, undefined, 'publishedid 0: not from the Workshop');
    assert.equal(byName['@AdvancedUrbanRappelling'].display_name, 'AUR local build');
  });

  it('compares a named preset (Workshop and local mods, DLC) without changing anything', async () => {
    const s = await createGameServer(h(), suite.fake);
    await h().api('PUT', `/servers/${s.id}/mods/enabled`, {
      token: h().adminToken,
      body: {
        mods: [
          { name: '@task_force_radio', is_server_mod: false },
          { name: '@AdvancedUrbanRappelling', is_server_mod: true },
        ],
      },
    });
    const res = await send(s.id, await preset('sunday-ops.preset.html'));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, {
      preset: { kind: 'preset', name: 'Sunday Ops & Friends' },
      matched: [
        { id: '450814997', name: 'CBA_A3', folder: '@CBA_A3' },
        { id: '463939057', name: 'ace', folder: '@ace' },
      ],
      missing: [{ id: '2034363662', name: 'Enhanced Movement <Rework>' }, { name: '@sunday_tweaks' }],
      extra: [{ folder: '@task_force_radio' }],
      dlc: [
        { app_id: '1021790', name: 'Contact' },
        { app_id: '1681170', name: 'Western Sahara' },
      ],
      applied: false,
    });
    assert.deepEqual(
      await enabled(s.id),
      [
        ['@AdvancedUrbanRappelling', true],
        ['@task_force_radio', false],
      ],
      'nothing applied',
    );
  });

  it('applies the list of loaded mods sent as a multipart file: its installed mods become the client mods', async () => {
    const s = await createGameServer(h(), suite.fake);
    await h().api('PUT', `/servers/${s.id}/mods/enabled`, {
      token: h().adminToken,
      body: {
        mods: [
          { name: '@ace', is_server_mod: false },
          { name: '@CBA_A3', is_server_mod: true },
        ],
      },
    });
    const res = await upload(s.id, await preset('loaded-mods.list.html'), '?apply=true');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const diff = res.body.data;
    assert.equal(diff.preset.kind, 'list');
    assert.deepEqual(diff.matched, [
      { id: '620019431', name: 'Task Force Arrowhead Radio (BETA!!!)', folder: '@task_force_radio' },
      { name: 'AUR local build', folder: '@AdvancedUrbanRappelling' },
    ]);
    assert.deepEqual(diff.extra, [], 'compared with the server as applied: @ace is no longer enabled');
    assert.equal(diff.applied, true);
    assert.deepEqual(
      await enabled(s.id),
      [
        ['@AdvancedUrbanRappelling', false],
        ['@CBA_A3', true],
        ['@task_force_radio', false],
      ],
      'the server mod stays',
    );
  });

  it('exports the enabled client mods as a preset the launcher loads, names escaped', async () => {
    const s = await createGameServer(h(), suite.fake, { name: 'Sunday <Ops>' });
    await h().api('PUT', `/servers/${s.id}/mods/enabled`, {
      token: h().adminToken,
      body: {
        mods: [
          { name: '@CBA_A3', is_server_mod: false },
          { name: '@tom_and_jerry', is_server_mod: false },
          { name: '@AdvancedUrbanRappelling', is_server_mod: true },
        ],
      },
    });
    const res = await h().api('GET', `/servers/${s.id}/mods/preset`, { token: h().viewerToken });
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/html/);
    assert.match(String(res.headers.get('content-disposition')), /attachment; filename="Sunday_Ops.html"/);
    const html = res.body as string;
    assert.doesNotMatch(html, /Jerry's <Mod>/, 'escaped');
    const back = gamea.capabilities.mod_manager.launcherPreset.parse(html);
    assert.deepEqual(back, {
      kind: 'preset',
      name: 'Sunday <Ops>',
      mods: [
        { name: 'Community Base Addons v3.17.1', workshop_id: '450814997', local_folder: null },
        { name: "Tom & Jerry's <Mod>", workshop_id: null, local_folder: '@tom_and_jerry' },
      ],
      dlc: [],
    });
    // Read back by the import: the same mods match.
    const again = (await send(s.id, html)).body.data;
    assert.deepEqual(
      again.matched.map((m: { folder: string }) => m.folder),
      ['@CBA_A3', '@tom_and_jerry'],
    );
    assert.deepEqual([again.missing, again.extra], [[], []]);
  });

  it('refuses a document that is not a preset, one over 1 MiB, an empty body and a viewer', async () => {
    const s = await createGameServer(h(), suite.fake);
    assert.match(
      expectError(await send(s.id, await preset('not-a-preset.html')), 400, 'VALIDATION_ERROR').message,
      /not a launcher preset: it has no <meta name="arma:Type">/,
    );
    const other = (await preset('loaded-mods.list.html')).replace('content="list"', 'content="modlist-v9"');
    assert.match(expectError(await send(s.id, other), 400, 'VALIDATION_ERROR').message, /not preset or list/);
    const huge = (await preset('sunday-ops.preset.html')).replace('</style>', `${' '.repeat(1024 * 1024)}</style>`);
    expectError(await send(s.id, huge), 413, 'FILE_TOO_LARGE');
    expectError(await upload(s.id, huge), 413, 'FILE_TOO_LARGE');
    expectError(await send(s.id, ''), 400, 'VALIDATION_ERROR');
    expectError(await send(s.id, await preset('sunday-ops.preset.html'), '', h().viewerToken), 403, 'FORBIDDEN');
    expectError(await send(s.id, await preset('sunday-ops.preset.html'), '?apply=maybe'), 400, 'VALIDATION_ERROR');
  });
});
