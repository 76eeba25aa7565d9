import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sectionDefaults, TypeCompiler, widgetHintOf, isSensitive, type ConfigValues, type ServerContext } from '@garrison/core';
import gamea, { quote, renderBasicCfg, renderBattlEyeCfg, renderProfile, renderServerCfg, sections } from '../src/index.js';
import { parseCfg, type CfgClass } from '@garrison/testkit';

const defaults = (): ConfigValues => Object.fromEntries(Object.entries(sections).map(([name, s]) => [name, sectionDefaults(s)]));
const ctx: ServerContext = {
  server: { id: 7, name: 'x', exe_path: '/srv/gamea/gameaserver_x64.exe', game_port: 2302, rcon_port: 2305 },
  serverDir: '/data/servers/7',
  exeDir: '/srv/gamea',
};

describe('gamea config fields', () => {
  // Sections are stored as JSON text, not in number columns: the bound is what JSON and JS read exactly.
  it('bound every number a client may send', () => {
    for (const [section, schema] of Object.entries(sections)) {
      for (const [name, field] of Object.entries(schema.properties)) {
        if (field.type !== 'integer' && field.type !== 'number') continue;
        assert.ok(field.minimum >= -Number.MAX_SAFE_INTEGER && field.maximum <= Number.MAX_SAFE_INTEGER, `${section}.${name}`);
      }
    }
  });

  it('declares about 80 fields, each with a default, a label and a widget hint', () => {
    let count = 0;
    for (const [name, section] of Object.entries(sections)) {
      for (const [field, schema] of Object.entries(section.properties)) {
        count += 1;
        assert.ok('default' in schema, `${name}.${field} has a default`);
        const hint = widgetHintOf(schema);
        assert.ok(hint?.widget && hint.label, `${name}.${field} has a widget hint`);
      }
    }
    assert.ok(count >= 75 && count <= 110, `${count} fields`);
  });

  it('has defaults that pass its own schema, with the spec sample values', () => {
    const d = defaults();
    for (const [name, section] of Object.entries(sections)) {
      const check = TypeCompiler.Compile(section);
      assert.ok(check.Check(d[name]), `${name}: ${[...check.Errors(d[name])].map((e) => e.path + ' ' + e.message).join('; ')}`);
    }
    assert.equal(d.server!.max_players, 40);
    assert.equal(d.basic!.min_bandwidth, 800000);
    assert.equal(d.profile!.reduced_damage, 0);
    assert.equal(d.launch!.world, 'empty');
    assert.equal(d.launch!.limit_fps, 50);
    assert.equal(d.rcon!.max_ping, 200);
    assert.equal(d.rcon!.enabled, 1);
  });

  it('has every field the spec names, with its type', () => {
    const types: Record<string, Record<string, string>> = {
      server: { hostname: 'string', max_players: 'integer', password: 'string', password_admin: 'string', forced_difficulty: 'integer', anticheat: 'integer', verify_signatures: 'integer', motd_lines: 'array', motd_interval: 'number', admin_uids: 'array', missions: 'array' },
      basic: { max_bandwidth: 'integer', min_bandwidth: 'integer', max_msg_send: 'integer' },
      profile: { third_person_view: 'integer', weapon_crosshair: 'integer', ai_level_preset: 'integer', skill_ai: 'number', precision_ai: 'number', reduced_damage: 'integer' },
      launch: { world: 'string', limit_fps: 'integer', auto_init: 'boolean', load_mission_to_memory: 'boolean' },
      rcon: { rcon_password: 'string', rcon_port: 'integer', max_ping: 'integer', enabled: 'integer' },
    };
    for (const [section, fields] of Object.entries(types)) {
      for (const [field, type] of Object.entries(fields)) {
        assert.equal((sections as unknown as Record<string, { properties: Record<string, { type?: string }> }>)[section]!.properties[field]?.type, type, `${section}.${field}`);
      }
    }
    const sensitive = Object.entries(sections).flatMap(([s, o]) => Object.entries(o.properties).filter(([, f]) => isSensitive(f)).map(([n]) => `${s}.${n}`));
    assert.deepEqual(sensitive.sort(), ['rcon.rcon_password', 'server.password', 'server.password_admin', 'server.server_command_password']);
  });

  it('generates letters-and-digits credentials BattlEye accepts', () => {
    const a = gamea.capabilities.config_generator.generateCredentials();
    const b = gamea.capabilities.config_generator.generateCredentials();
    assert.match(String(a.rcon!.rcon_password), /^[A-Za-z0-9]{16,32}$/);
    assert.match(String(a.server!.password_admin), /^[A-Za-z0-9]{16,32}$/);
    assert.notEqual(a.rcon!.rcon_password, b.rcon!.rcon_password);
  });
});

describe('gamea config rendering', () => {
  it('quotes strings the game way: "" for a quote, no line breaks', () => {
    assert.equal(quote('plain'), '"plain"');
    assert.equal(quote('say "hi"'), '"say ""hi"""');
    assert.equal(quote('a\nb\r\nc\td'), '"a b  c d"');
    assert.equal(quote('\u2028x'), '" x"');
  });

  it('keeps a hostile hostname one harmless string', () => {
    const hostile = 'Evil"; passwordAdmin = "x";\nmaxPlayers = 1; // "';
    const base = parseCfg(renderServerCfg(defaults().server!));
    const config = defaults();
    config.server!.hostname = hostile;
    config.server!.motd_lines = ['line "1"', '};\nclass Missions {'];
    config.server!.on_user_connected = '"; BattlEye = 0; x = "';
    const text = renderServerCfg(config.server!);
    const parsed = parseCfg(text);
    assert.deepEqual(Object.keys(parsed).sort(), Object.keys(base).sort(), 'no key was added or lost');
    assert.equal(parsed.hostname, hostile.replace(/\n/g, ' '));
    assert.equal(parsed.passwordAdmin, '');
    assert.equal(parsed.maxPlayers, 40);
    assert.equal(parsed.BattlEye, 1);
    assert.deepEqual(parsed.motd, ['line "1"', '}; class Missions {']);
    assert.equal(text.split('\n').filter((l) => l.startsWith('hostname')).length, 1);
  });

  it('renders server.cfg with the game keys and the mission rotation', () => {
    const config = defaults();
    config.server!.missions = [
      { name: 'co10_Escape.Altis', difficulty: 'Veteran' },
      { name: 'dm.Stratis', difficulty: '' },
    ];
    config.server!.forced_difficulty = 2;
    config.server!.admin_uids = ['76561198000000000'];
    const cfg = parseCfg(renderServerCfg(config.server!));
    assert.equal(cfg.hostname, 'Garrison Server');
    assert.equal(cfg.forcedDifficulty, 'Veteran');
    assert.deepEqual(cfg.admins, ['76561198000000000']);
    assert.equal(cfg.voteThreshold, 0.33);
    assert.deepEqual(cfg.kickClientsOnSlowNetwork, [0, 0, 0, 0]);
    const missions = cfg.Missions as CfgClass;
    assert.deepEqual(Object.values(missions), [
      { template: 'co10_Escape.Altis', difficulty: 'Veteran', Params: {} },
      { template: 'dm.Stratis', Params: {} },
    ]);
  });

  it('renders basic.cfg without exponent notation', () => {
    const basic = defaults().basic!;
    basic.min_error_to_send = 0.0000001;
    const text = renderBasicCfg(basic);
    assert.doesNotMatch(text, /e-|e\+/);
    const cfg = parseCfg(text);
    assert.equal(cfg.MinBandwidth, 800000);
    assert.equal(cfg.MaxBandwidth, 10000000000);
    assert.equal(cfg.MinErrorToSend, 0.0000001);
    assert.deepEqual(cfg.sockets, { maxPacketSize: 1400 });
  });

  it('renders the profile with the difficulty options and the AI level beside them', () => {
    const profile = defaults().profile!;
    profile.third_person_view = 1;
    profile.skill_ai = 0.75;
    const cfg = parseCfg(renderProfile(profile));
    const presets = cfg.DifficultyPresets as CfgClass;
    const options = (presets.CustomDifficulty as CfgClass).Options as CfgClass;
    assert.equal(options.thirdPersonView, 1);
    assert.equal(options.reducedDamage, 0);
    assert.equal(Object.keys(options).length, 21);
    assert.equal((presets.CustomDifficulty as CfgClass).aiLevelPreset, 3);
    assert.deepEqual(presets.CustomAILevel, { skillAI: 0.75, precisionAI: 0.5 });
  });

  it('renders the BattlEye config, leaving the password out when RCon is disabled', () => {
    const rcon = { ...defaults().rcon!, rcon_password: 'Secret123' };
    assert.equal(renderBattlEyeCfg(rcon, 2305), 'RConPassword Secret123\nRConPort 2305\nMaxPing 200\n');
    assert.equal(renderBattlEyeCfg({ ...rcon, enabled: 0 }, 2305), 'RConPort 2305\nMaxPing 200\n');
  });

  it('places each file where the launch arguments point', () => {
    const files = gamea.capabilities.config_generator.render(defaults(), ctx);
    assert.deepEqual(
      files.map((f) => [f.label, f.path]),
      [
        ['server.cfg', '/data/servers/7/server.cfg'],
        ['basic.cfg', '/data/servers/7/basic.cfg'],
        ['server.GameaProfile', '/srv/gamea/server/Users/server/server.GameaProfile'],
        ['BEServer_x64.cfg', '/data/servers/7/battleye/BEServer_x64.cfg'],
      ],
    );
  });
});

describe('gamea launch arguments', () => {
  const launch = gamea.capabilities.process_config.launchArguments;

  it('builds the standard arguments from the defaults', () => {
    assert.deepEqual(launch(defaults(), ctx), [
      '-port=2302',
      '-config=/data/servers/7/server.cfg',
      '-cfg=/data/servers/7/basic.cfg',
      '-profiles=/srv/gamea/server',
      '-name=server',
      '-world=empty',
      '-limitFPS=50',
      '-bepath=/data/servers/7/battleye',
    ]);
  });

  it('adds switches, tuning and mods from the config', () => {
    const config = defaults();
    Object.assign(config.launch!, { auto_init: true, load_mission_to_memory: true, world: 'Altis', limit_fps: 120, max_mem: 8192, ex_threads: 7 });
    const args = launch(config, ctx, { mods: [{ name: '@CBA_A3', is_server_mod: false }, { name: '@ace', is_server_mod: false }, { name: '@admin', is_server_mod: true }] });
    for (const a of ['-autoInit', '-loadMissionToMemory', '-world=Altis', '-limitFPS=120', '-maxMem=8192', '-exThreads=7', '-mod=@CBA_A3;@ace', '-serverMod=@admin']) {
      assert.ok(args.includes(a), `${a} in ${args.join(' ')}`);
    }
  });

  it('refuses a mod name that would smuggle in another mod', () => {
    assert.throws(() => launch(defaults(), ctx, { mods: [{ name: '@a;@b', is_server_mod: false }] }), /mod folder name/);
  });
});
