import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sectionDefaults, TypeCompiler, type ConfigValues, type ServerContext } from '@garrison/core';
import { ImportFiles } from '@garrison/server/import-files';
import gameb, { readStartCommand, sections, statementsOf } from '../src/index.js';

const generator = gameb.capabilities.config_generator;
const processConfig = gameb.capabilities.process_config;

const ctx = (installationKey: string | null = null): ServerContext => ({
  server: { id: 3, name: 'B', exe_path: '/srv/gameb/gamebserver', game_port: 27015, rcon_port: 27015 },
  serverDir: '/var/lib/garrison/servers/3',
  exeDir: '/srv/gameb',
  installationKey,
});

type GameBConfig = Parameters<typeof generator.render>[0];

function newConfig(): GameBConfig {
  const config: ConfigValues = Object.fromEntries(Object.entries(sections).map(([name, s]) => [name, sectionDefaults(s)]));
  for (const [section, values] of Object.entries(generator.generateCredentials())) config[section] = { ...config[section], ...values };
  return config as GameBConfig;
}

describe('gameb config', () => {
  it('renders server.cfg in the game syntax and mapcycle.txt, in the installation', () => {
    const config = newConfig();
    config.server = {
      ...config.server,
      hostname: 'Friday "Frag" Night',
      sv_password: 'join',
      extra_lines: ['sv_cheats 0', 'sv_allowupload 0 // no sprays'],
    };
    config.rcon = { rcon_password: 'Secret123' };
    config.mapcycle = { start_map: 'de_dust2', maps: [{ name: 'de_inferno' }, { name: 'de_nuke' }] };
    const [serverCfg, mapcycle] = generator.render(config, ctx());
    assert.equal(serverCfg.label, 'server.cfg');
    assert.equal(serverCfg.path, '/srv/gameb/cfg/server.cfg');
    assert.equal(
      serverCfg.content,
      [
        '// Written by Garrison: edit the settings in Garrison, changes made here are overwritten on the next start.',
        '',
        'hostname "Friday  Frag  Night"',
        'sv_password "join"',
        'rcon_password "Secret123"',
        'sv_maxrate 0',
        'mp_timelimit 30',
        '',
        '// The files of this server: its map cycle, its log folder and its ban lists (which Garrison and the game share).',
        'mapcyclefile "mapcycle.txt"',
        'sv_logsdir "logs"',
        'log on',
        'sv_rcon_log 0',
        'exec banned_user.cfg',
        'exec banned_ip.cfg',
        '',
        "// Extra lines, written as they were given in Garrison's extra_lines field:",
        'sv_cheats 0',
        'sv_allowupload 0 // no sprays',
        '',
      ].join('\n'),
    );
    assert.deepEqual(mapcycle, { label: 'mapcycle.txt', path: '/srv/gameb/mapcycle.txt', content: 'de_inferno\nde_nuke\n' });
    // Every cvar line reads back as the game would read it.
    const read = new Map(
      serverCfg.content
        .split('\n')
        .flatMap(statementsOf)
        .map((s) => [s.name, s.value]),
    );
    assert.equal(read.get('rcon_password'), 'Secret123');
    assert.equal(read.get('mp_timelimit'), '30');
    assert.deepEqual(generator.downloadable, ['server.cfg', 'mapcycle.txt']);
    assert.deepEqual(generator.glance!(config), { hostname: 'Friday "Frag" Night', max_players: 24 });
  });

  it('gives a further server on the installation files of its own', () => {
    const config = newConfig();
    const [serverCfg, mapcycle] = generator.render(config, ctx('b2'));
    assert.equal(serverCfg.path, '/srv/gameb/cfg/server_b2.cfg');
    assert.equal(mapcycle.path, '/srv/gameb/mapcycle_b2.txt');
    assert.match(serverCfg.content, /^mapcyclefile "mapcycle_b2.txt"$/m);
    assert.match(serverCfg.content, /^sv_logsdir "logs_b2"$/m);
    assert.match(serverCfg.content, /^exec banned_user_b2.cfg$/m);
    assert.equal(gameb.capabilities.log_parser.logDirectory(ctx('b2')), '/srv/gameb/logs_b2');
    assert.equal(gameb.capabilities.ban_manager.banFilePath(ctx('b2'), 'STEAMID'), '/srv/gameb/cfg/banned_user_b2.cfg');
    assert.equal(gameb.capabilities.ban_manager.banFilePath(ctx(), 'IP'), '/srv/gameb/cfg/banned_ip.cfg');
    assert.deepEqual(processConfig.backupParts(ctx('b2'))[0].entries, ['server_b2.cfg', 'banned_user_b2.cfg', 'banned_ip_b2.cfg']);
  });

  it('launches with the game port, player slots, the first map of the cycle and its own cfg', () => {
    const config = newConfig();
    assert.deepEqual(processConfig.launchArguments(config, ctx()), [
      '-console',
      '-port',
      '27015',
      '+ip',
      '0.0.0.0',
      '+maxplayers',
      '24',
      '+map',
      'de_dust2',
      '+exec',
      'server.cfg',
    ]);
    config.server = { ...config.server, max_players: 32 };
    config.mapcycle = { start_map: 'de_dust2', maps: [{ name: 'cs_office' }] };
    assert.deepEqual(processConfig.launchArguments(config, ctx('b2')).slice(5), [
      '+maxplayers',
      '32',
      '+map',
      'cs_office',
      '+exec',
      'server_b2.cfg',
    ]);
    assert.deepEqual(processConfig.allowedExecutables, ['gamebserver', 'gamebserver.exe']);
    const target = gameb.capabilities.remote_admin.target(config, ctx());
    assert.equal(target?.port, 27015);
    assert.equal(target?.password, config.rcon.rcon_password);
  });

  it('makes fresh credentials that fit the schemas', () => {
    const config = newConfig();
    for (const [name, schema] of Object.entries(sections))
      assert.ok(TypeCompiler.Compile(schema).Check((config as ConfigValues)[name]), name);
    assert.notDeepEqual(generator.generateCredentials(), generator.generateCredentials());
    assert.match(String(config.rcon.rcon_password), /^[A-Za-z0-9]{24}$/);
  });

  it('refuses extra lines that set a managed cvar, leave a quote open or exec a file outside cfg/', () => {
    const check = (lines: string[]) => generator.checkSection!('server', { extra_lines: lines });
    assert.equal(check(['sv_cheats 0', '// comment', '', 'exec custom.cfg', 'sv_tags "a;b"']), null);
    assert.match(check(['sv_cheats 0', 'hostname x']) ?? '', /line 2: hostname is written by Garrison: use the field 'hostname'/);
    assert.match(check(['sv_cheats 0; RCON_PASSWORD x']) ?? '', /rcon_password/i);
    assert.match(check(['log off']) ?? '', /written by Garrison itself/);
    assert.match(check(['sv_tags "open']) ?? '', /quote is not closed/);
    assert.match(check(['exec ../../etc/passwd']) ?? '', /cfg folder/);
    assert.equal(generator.checkSection!('rcon', {}), null);
  });
});

const folders: string[] = [];
after(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

async function installation(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'garrison-gameb-import-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  await writeFile(join(root, 'gamebserver'), '');
  return root;
}

const SERVER_CFG = [
  '// server.cfg of the Friday server',
  '\thostname   "Friday Frag Night"   // shown in the browser',
  'sv_password ""',
  'rcon_password  hunter2',
  'sv_maxrate "30000"',
  'mp_timelimit 45.0',
  'sv_cheats 0',
  'sv_alltalk 1 // everyone hears everyone',
  'mp_friendlyfire 0; mp_autoteambalance 1',
  'log on',
  'exec banned_user.cfg',
  'exec banned_ip.cfg',
  'mapcyclefile "cycle.txt"',
  'mp_timelimit 999999999',
  '',
].join('\r\n');

describe('gameb import', () => {
  const importer = generator.importer!;

  it('reads server.cfg tolerantly, keeps unknown cvars as extra lines, and reads the map cycle, ports and bans', async () => {
    const root = await installation({
      'cfg/server.cfg': SERVER_CFG,
      'cycle.txt': '// maps\nde_dust2\n\n  de_inferno  \nbad map\n',
      'cfg/banned_user.cfg': 'banid 0 STEAM_0:1:1234\nbanid 0.0 STEAM_0:0:5\n',
      'cfg/banned_ip.cfg': 'addip 0 1.2.3.4\n',
      'maps/de_dust2.bsp': 'x',
      'maps/readme.txt': 'x',
    });
    const draft = await importer.read(
      {
        exe_path: join(root, 'gamebserver'),
        command_line: './gamebserver -console -port 27016 +maxplayers 20 +map de_nuke +exec server.cfg',
      },
      new ImportFiles(root),
    );
    assert.equal(draft.name, 'Friday Frag Night');
    assert.equal(draft.game_port, 27016);
    assert.equal(draft.rcon_port, 27016);
    assert.deepEqual(draft.sections.server, {
      hostname: 'Friday Frag Night',
      sv_password: '',
      sv_maxrate: 30000,
      mp_timelimit: 45,
      max_players: 20,
      extra_lines: ['sv_cheats 0', 'sv_alltalk 1 // everyone hears everyone', 'mp_friendlyfire 0; mp_autoteambalance 1'],
    });
    assert.deepEqual(draft.sections.rcon, { rcon_password: 'hunter2' });
    assert.deepEqual(draft.sections.mapcycle, { start_map: 'de_nuke', maps: [{ name: 'de_dust2' }, { name: 'de_inferno' }] });
    assert.deepEqual(draft.rotation, [
      { name: 'de_dust2', difficulty: '' },
      { name: 'de_inferno', difficulty: '' },
    ]);
    assert.deepEqual(
      draft.unknown.map((u) => [u.line, u.key]),
      [
        [7, 'sv_cheats'],
        [8, 'sv_alltalk'],
        [9, 'mp_friendlyfire'],
      ],
    );
    assert.deepEqual(
      draft.refused.map((r) => [r.line, r.key]),
      [
        [14, 'mp_timelimit'],
        [5, 'bad map'],
      ],
    );
    assert.deepEqual(draft.bans, {
      files: [
        { file: join(root, 'cfg', 'banned_user.cfg'), kind: 'STEAMID' },
        { file: join(root, 'cfg', 'banned_ip.cfg'), kind: 'IP' },
      ],
      count: 3,
    });
    assert.deepEqual(draft.missions, ['de_dust2.bsp']);
    assert.equal(draft.mods.length, 0);
    // What was read passes the sections' checks.
    for (const [name, values] of Object.entries(draft.sections)) {
      assert.ok(
        TypeCompiler.Compile(sections[name as keyof typeof sections]).Check({
          ...sectionDefaults(sections[name as keyof typeof sections]),
          ...values,
        }),
        name,
      );
    }
    assert.equal(generator.checkSection!('server', draft.sections.server), null);
  });

  it('imports an installation without a server.cfg from the defaults, with a warning', async () => {
    const root = await installation({});
    const draft = await importer.read({ exe_path: join(root, 'gamebserver') }, new ImportFiles(root));
    assert.equal(draft.game_port, 27015);
    assert.deepEqual(draft.sections, {});
    assert.ok(draft.warnings.some((w) => /no server.cfg/.test(w)));
    assert.deepEqual(
      draft.files.map((f) => [f.role, f.found]),
      [
        ['server.cfg', false],
        ['mapcycle', false],
        ['banned_user.cfg', false],
        ['banned_ip.cfg', false],
      ],
    );
  });

  it('reads the start command as the game takes it', () => {
    const words = readStartCommand('"C:\\gameb\\gamebserver.exe" -console -port 27020 +map "de_dust2" +exec my.cfg');
    assert.equal(words.get('-port'), '27020');
    assert.equal(words.get('+map'), 'de_dust2');
    assert.equal(words.get('+exec'), 'my.cfg');
    assert.equal(words.get('-console'), undefined);
  });
});
