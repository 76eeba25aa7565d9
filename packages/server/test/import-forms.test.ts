import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { join } from 'node:path';
import { readCfg } from '@garrison/adapter-gamea';
import { freeGamePorts, installFakeGameaTemp } from '@garrison/testkit';
import { expectError, startHarness, type Harness } from './helpers.js';
import { unaccountedBattlEye, unaccountedCfg, unaccountedCommandLine } from './import-keys/accounting.js';

const FORMS = new URL('./fixtures/forms/', import.meta.url).pathname;
type Fake = Awaited<ReturnType<typeof installFakeGameaTemp>>;
interface Form {
  fake: Fake;
  commandLine: string;
  ports: { game_port: number; rcon_port: number };
}

/**
 * Issue 30, §1, on installations as they are found (fixtures/forms): one written by TADST (CRLF,
 * `CustomAILevel` inside `CustomDifficulty`, `battleye/beserver.cfg`, a mod not installed), one kept by
 * hand (an #include, nested classes, comments, empty arrays and zeros, `BattlEye/BEServer_x64.cfg`).
 * Each is imported through the API and its every key found in the files Garrison writes, or refused.
 */
describe('import: installations in the forms real servers have', () => {
  let h: Harness;
  const fakes: Fake[] = [];
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
    for (const fake of fakes) await fake.remove();
  });

  /** The fixture in a folder with the fake game, on free ports (its start script and BattlEye config rewritten for them). */
  async function form(name: string, script: string, be: string, filePorts: { game: number; rcon: number }): Promise<Form> {
    const fake = await installFakeGameaTemp();
    fakes.push(fake);
    await cp(join(FORMS, name), fake.dir, { recursive: true });
    const ports = await freeGamePorts();
    const cfg = join(fake.dir, be);
    await writeFile(cfg, (await readFile(cfg, 'utf8')).replace(`${filePorts.rcon}`, `${ports.rcon_port}`));
    const commandLine = (await readFile(join(fake.dir, script), 'utf8')).replace(`-port=${filePorts.game}`, `-port=${ports.game_port}`);
    return { fake, commandLine, ports };
  }
  const importing = (f: Form, body: Record<string, unknown> = {}) =>
    h.api('POST', '/servers/import', { token: h.adminToken, body: { exe_path: f.fake.exePath, command_line: f.commandLine, ...body } });

  /** Every key of every file of the form against the files Garrison writes for the server made. */
  async function accounted(
    f: Form,
    plan: Record<string, any>,
    files: { server: string; basic: string; profile: string; be: string },
  ): Promise<string[]> {
    const preview = (await h.api('GET', `/servers/${plan.server.id}/config/preview`, { token: h.adminToken })).body.data as Record<
      string,
      string
    >;
    const include = (name: string) => ({ file: name, text: require_(join(f.fake.dir, name)) });
    const text = Object.fromEntries(
      await Promise.all(Object.entries(files).map(async ([k, p]) => [k, await readFile(join(f.fake.dir, p), 'utf8')])),
    );
    return [
      ...unaccountedCfg(readCfg(text.server, files.server, include), preview['server.cfg'], plan.refused, plan.rotation),
      ...unaccountedCfg(readCfg(text.basic, files.basic), preview['basic.cfg'], plan.refused),
      ...unaccountedCfg(readCfg(text.profile, files.profile), preview['server.GameaProfile'], plan.refused),
      ...unaccountedBattlEye(text.be, files.be, preview['BEServer_x64.cfg'], plan.server.rcon_port, plan.refused),
      ...unaccountedCommandLine(f.commandLine, plan as never),
    ];
  }

  it(
    'a TADST installation: empty arrays, zeros and {0, 0, 0, 1} as written, the profile as TADST writes it, beserver.cfg, a ' +
      'missing mod',
    async () => {
      const f = await form('tadst', 'TADST_start.bat', 'battleye/beserver.cfg', { game: 2310, rcon: 2312 });
      assert.match(await readFile(join(f.fake.dir, 'server.cfg'), 'utf8'), /\r\n/, 'the fixture has CRLF line ends');
      const dry = await importing(f, { dry_run: true });
      assert.equal(dry.status, 200, JSON.stringify(dry.body));
      const plan = dry.body.data;
      assert.equal(plan.server.rcon_port, f.ports.rcon_port, 'RConPort of battleye/beserver.cfg');
      const { server, profile, launch } = plan.sections;
      assert.deepEqual(
        [
          server.mission_whitelist,
          server.file_patching_exceptions,
          server.disable_text_channels,
          server.regular_check,
          server.missions_to_server_restart,
          server.missions_to_shutdown,
        ],
        [[], [], [], '', 0, 0],
      );
      assert.deepEqual(server.kick_on_slow_network_checks, ['0', '0', '0', '1']);
      assert.equal(profile.difficulty, 'regular');
      assert.deepEqual([profile.skill_ai, profile.precision_ai], [0.75, 0.55], 'CustomAILevel inside CustomDifficulty, as TADST writes it');
      assert.deepEqual(profile.custom_difficulty_lines, ['displayName = "Custom";', 'levelAI = "AILevelMedium";']);
      assert.deepEqual(profile.options_lines, ['mapContentFriendly = 1;', 'mapContentEnemy = 0;', 'mapContentMines = 1;']);
      assert.deepEqual(plan.mods, [
        { name: '@CBA_A3', is_server_mod: false, installed: true },
        { name: '@VULTURE[Tech Mod]', is_server_mod: false, installed: true },
        { name: '@missing_mod', is_server_mod: false, installed: false },
      ]);
      assert.deepEqual(
        launch.mods.map((m: { name: string }) => m.name),
        ['@CBA_A3', '@VULTURE[Tech Mod]'],
        'a missing mod is not enabled',
      );
      assert.ok(
        plan.warnings.some((w: string) => /@missing_mod .*not enabled/.test(w)),
        JSON.stringify(plan.warnings),
      );

      const made = await importing(f);
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.deepEqual(
        await accounted(f, made.body.data, {
          server: 'server.cfg',
          basic: 'basic.cfg',
          profile: 'Users/tadst/tadst.GameaProfile',
          be: 'battleye/beserver.cfg',
        }),
        [],
      );
      const preview = (await h.api('GET', `/servers/${made.body.data.server.id}/config/preview`, { token: h.adminToken })).body
        .data as Record<string, string>;
      for (const line of [
        'missionWhitelist[] = {};',
        'filePatchingExceptions[] = {};',
        'disableChannels[] = {};',
        'regularCheck = "";',
        'missionsToServerRestart = 0;',
        'missionsToShutdown = 0;',
        'kickClientsOnSlowNetwork[] = {0, 0, 0, 1};',
      ]) {
        assert.ok(preview['server.cfg'].split('\n').includes(line), `server.cfg has ${line}`);
      }
      for (const line of [
        'difficulty = "regular";',
        '        levelAI = "AILevelMedium";',
        '        skillAI = 0.75;',
        '        precisionAI = 0.55;',
      ])
        assert.ok(
          preview['server.GameaProfile']
            .split('\n')
            .map((l) => l.trim())
            .includes(line.trim()),
          `the profile has ${line}`,
        );
      assert.equal(preview['-mod'], '@CBA_A3;@VULTURE[Tech Mod]');

      // The launcher names the mod by its name; its folder is @VULTURE[Tech Mod].
      const row = (name: string, meta: string) =>
        `<tr data-type="ModContainer"><td data-type="DisplayName">${name}</td><td><span ` +
        `class="from-local">Local</span></td><td><span class="whups" data-type="Link" data-meta="${meta}"></span></td></tr>`;
      const rows =
        row('VULTURE Tech Mod', 'local:VULTURE Tech Mod|C:\\Games\\Gamea\\@VULTURE[Tech Mod]\\|') +
        row('VULTURE[Tech Mod]', 'local:VULTURE[Tech Mod]||');
      const preset =
        '<html><head><meta name="arma:Type" content="preset" /></head><body>' +
        `<div class="mod-list"><table>${rows}</table></div></body></html>`;
      const diff = await h.api('POST', `/servers/${made.body.data.server.id}/mods/preset`, {
        token: h.adminToken,
        raw: preset,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
      assert.equal(diff.status, 200, JSON.stringify(diff.body));
      assert.deepEqual(
        diff.body.data.matched.map((m: { folder: string }) => m.folder),
        ['@VULTURE[Tech Mod]', '@VULTURE[Tech Mod]'],
      );
      assert.deepEqual(diff.body.data.missing, []);
    },
  );

  it('a hand-kept installation: an #include, nested classes, comments, keys in any case, BattlEye/BEServer_x64.cfg', async () => {
    const f = await form('hand-written', 'start.sh', 'BattlEye/BEServer_x64.cfg', { game: 2320, rcon: 2322 });
    const made = await importing(f);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const plan = made.body.data;
    assert.equal(plan.server.rcon_port, f.ports.rcon_port, 'rconport, in lower case');
    assert.deepEqual(
      await accounted(f, plan, {
        server: 'server.cfg',
        basic: 'basic.cfg',
        profile: 'profiles/Users/hand/hand.GameaProfile',
        be: 'BattlEye/BEServer_x64.cfg',
      }),
      [],
    );
    assert.ok(
      plan.refused.some((r: { key: string; reason: string }) => r.key === 'RConIP' && /not written/.test(r.reason)),
      'RConIP is said, not dropped',
    );
    assert.deepEqual(
      plan.mods.map((m: { name: string; installed: boolean }) => [m.name, m.installed]),
      [
        ['@ace', true],
        ['@not_installed', false],
      ],
    );
  });

  it('a port another process holds: a line of the dry run, 409 PORT_IN_USE on the import, and the ports given instead', async () => {
    const f = await form('hand-written', 'start.sh', 'BattlEye/BEServer_x64.cfg', { game: 2320, rcon: 2322 });
    const holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(f.ports.game_port, '0.0.0.0', resolve));
    try {
      const dry = await importing(f, { dry_run: true });
      assert.equal(dry.status, 200, 'a dry run shows the plan whatever it finds');
      assert.ok(
        dry.body.data.warnings.some((w: string) =>
          w.startsWith(`PORT_IN_USE: game_port ${f.ports.game_port} is in use on this host by another process`),
        ),
        JSON.stringify(dry.body.data.warnings),
      );
      const count = (await h.api('GET', '/servers', { token: h.adminToken })).body.data.length;
      assert.match(expectError(await importing(f), 409, 'PORT_IN_USE').message, new RegExp(`game_port ${f.ports.game_port}`));
      assert.equal((await h.api('GET', '/servers', { token: h.adminToken })).body.data.length, count, 'nothing made');
      const other = await freeGamePorts();
      const moved = await importing(f, other);
      assert.equal(moved.status, 201, JSON.stringify(moved.body));
      assert.deepEqual([moved.body.data.server.game_port, moved.body.data.server.rcon_port], [other.game_port, other.rcon_port]);
      assert.ok(
        moved.body.data.warnings.some((w: string) =>
          w.startsWith(`game port ${other.game_port} as given, instead of ${f.ports.game_port}`),
        ),
      );
      const be = (await h.api('GET', `/servers/${moved.body.data.server.id}/config/preview`, { token: h.adminToken })).body.data[
        'BEServer_x64.cfg'
      ] as string;
      assert.match(be, new RegExp(`^RConPort ${other.rcon_port}$`, 'm'), 'BattlEye is told the port given');
      expectError(await importing(f, { game_port: 80, dry_run: true }), 400, 'VALIDATION_ERROR');
    } finally {
      holder.close();
    }
  });
});

function require_(path: string): string {
  return readFileSync(path, 'utf8');
}
