import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ADAPTER_API_VERSION } from '@garrison/core';
import { PluginLoadError, startServer } from '../src/index.js';
import { createServer, expectError, freshPort, startHarness, type Harness } from './helpers.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('adapter plugins', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ plugins: [fixture('minimal-adapter.ts')] });
  });
  after(() => h.close());

  it('discovers the gamea package by its marker and loads a module named in GARRISON_PLUGINS', async () => {
    const games = (await h.api('GET', '/games')).body.data;
    assert.deepEqual(
      games.map((g: { game_type: string }) => g.game_type),
      ['gamea', 'gameb', 'gamez'],
    );
    const b = (await h.api('GET', '/games/gamez')).body.data;
    assert.deepEqual(b, {
      game_type: 'gamez',
      display_name: 'Game Z',
      version: '0.3.0',
      capabilities: ['process_config'],
      default: false,
      schema_version: '2',
      config_sections: [],
      allowed_executables: ['gamezd'],
      identity_kinds: [],
      remote_admin_operations: [],
      remote_admin_port: null,
      missions: null,
      presentation: {},
      steam: null,
    });
    assert.deepEqual((await h.api('GET', '/games/gamez/config-schema')).body.data, {});
    assert.deepEqual((await h.api('GET', '/games/gamez/defaults')).body.data, {});
    assert.deepEqual((await h.api('GET', '/games/gamez/commands')).body.data, [], 'no remote admin, no commands');
  });

  it('runs servers of the minimal game with its own allowlist', async () => {
    const s = await createServer(h, { game_type: 'gamez', exe_path: '/srv/gamez/gamezd' });
    assert.equal(s.game_type, 'gamez');
    assert.ok(!('rcon_password' in s), 'no credentials for a game without config');
    expectError(
      await h.api('POST', '/servers', {
        token: h.adminToken,
        body: { name: 'x', game_type: 'gamez', exe_path: '/x/gameaserver.exe', game_port: freshPort() },
      }),
      400,
      'EXE_NOT_ALLOWED',
    );
    const filtered = await h.api('GET', '/servers?game_type=gamez', { token: h.adminToken });
    assert.deepEqual(
      filtered.body.data.map((x: { id: number }) => x.id),
      [s.id],
    );
  });

  it('answers 400 NOT_SUPPORTED where the game lacks the capability, and an empty config otherwise', async () => {
    const s = await createServer(h, { game_type: 'gamez', exe_path: '/srv/gamez/gamezd' });
    expectError(await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken }), 400, 'NOT_SUPPORTED');
    assert.deepEqual((await h.api('GET', `/servers/${s.id}/config`, { token: h.adminToken })).body.data, {});
    assert.deepEqual((await h.api('GET', `/servers/${s.id}/config/schema`, { token: h.adminToken })).body.data, {});
    expectError(await h.api('GET', `/servers/${s.id}/config/server`, { token: h.adminToken }), 404, 'NOT_FOUND');
    const a = await createServer(h);
    assert.equal((await h.api('GET', `/servers/${a.id}/config/preview`, { token: h.adminToken })).status, 200);
  });
});

describe('adapter loading failures stop start-up and name the step', () => {
  async function failure(plugins: string[], projectRoot?: string): Promise<PluginLoadError> {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-plugin-'));
    try {
      await startServer({ port: 0, dataDir, plugins, projectRoot, logger: pino({ level: 'silent' }) });
    } catch (err) {
      return err as PluginLoadError;
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    throw new Error('start-up should have failed');
  }

  const cases: [string, string, RegExp][] = [
    ['no-such-file.ts', 'resolve', /no such file/],
    ['throws-on-import.ts', 'import', /boom at import/],
    ['not-an-adapter.ts', 'check', /not an adapter/],
    ['wrong-api-version.ts', 'check', /API version 99/],
    ['incomplete-capability.ts', 'check', /process_config lacks launchArguments/],
    // Bans and players carry the kinds' names as the API's ban_type: declared, upper case, each once.
    ['identity-kinds/none.ts', 'check', /with ban_manager declares no identities/],
    ['identity-kinds/lower-case.ts', 'check', /identities\[0\]\.kind "SteamId" is not an upper-case identifier/],
    ['identity-kinds/not-a-name.ts', 'check', /identities\[0\]\.kind "IP ADDRESS" is not an upper-case identifier/],
    ['identity-kinds/twice.ts', 'check', /identities\[2\]\.kind STEAMID is declared twice/],
    ['identity-kinds/bad-pattern.ts', 'check', /identities\[0\]\.pattern \(GUID\): Invalid regular expression/],
  ];
  for (const [file, phase, reason] of cases) {
    it(`${file} fails at ${phase}`, async () => {
      const err = await failure([fixture(file)]);
      assert.ok(err instanceof PluginLoadError, String(err));
      assert.equal(err.phase, phase);
      assert.match(err.message, reason);
      assert.ok(err.hint.length > 0);
    });
  }

  it('refuses two adapters for one game type', async () => {
    const err = await failure([fixture('minimal-adapter.ts'), fixture('minimal-adapter.ts')]);
    assert.equal(err.phase, 'check');
    assert.match(err.message, /already provided/);
  });

  it('discovers a marked package among the dependencies of the project it runs in, and checks its API version', async () => {
    const project = await mkdtemp(join(tmpdir(), 'garrison-project-'));
    try {
      const pkgDir = join(project, 'node_modules', 'garrison-adapter-gamec');
      await mkdir(pkgDir, { recursive: true });
      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'site', dependencies: { 'garrison-adapter-gamec': '1.0.0' } }));
      await writeFile(
        join(pkgDir, 'package.json'),
        JSON.stringify({
          name: 'garrison-adapter-gamec',
          version: '1.0.0',
          type: 'module',
          exports: { '.': { import: './main.js' } },
          garrison: { adapter: true, apiVersion: ADAPTER_API_VERSION },
        }),
      );
      const identity = "{ game_type: 'gamec', display_name: 'Game C', version: '1.0.0', schema_version: '1' }";
      await writeFile(
        join(pkgDir, 'main.js'),
        `export default Object.assign(
          { apiVersion: ${ADAPTER_API_VERSION}, identity: ${identity}, capabilities: {} },
          { [Symbol.for('garrison.adapter')]: true });\n`,
      );
      const h = await startHarness({ projectRoot: project });
      try {
        const games = (await h.api('GET', '/games')).body.data.map((g: { game_type: string }) => g.game_type);
        assert.deepEqual(games, ['gamea', 'gameb', 'gamec']);
      } finally {
        await h.close();
      }
      await writeFile(
        join(pkgDir, 'package.json'),
        JSON.stringify({
          name: 'garrison-adapter-gamec',
          version: '1.0.0',
          type: 'module',
          main: 'main.js',
          garrison: { adapter: true, apiVersion: ADAPTER_API_VERSION + 1 },
        }),
      );
      const err = await failure([], project);
      assert.equal(err.phase, 'check');
      assert.match(err.message, new RegExp(`apiVersion ${ADAPTER_API_VERSION + 1}`));
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
