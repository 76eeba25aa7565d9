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

  it("declares the spec's fields and the settings real server.cfg files use, each with a default, a label and a widget hint", () => {
    let count = 0;
    for (const [name, section] of Object.entries(sections)) {
      for (const [field, schema] of Object.entries(section.properties)) {
        count += 1;
        assert.ok('default' in schema, `${name}.${field} has a default`);
        const hint = widgetHintOf(schema);
        assert.ok(hint?.widget && hint.label, `${name}.${field} has a widget hint`);
      }
    }
    assert.ok(count >= 75 && count <= 160, `${count} fields`);
  });

  it('has defaults that pass its own schema, with the spec sample values', () => {
    const d = defaults();
    for (const [name, section] of Object.entries(sections)) {
      const check = TypeCompiler.Compile(section);
      assert.ok(check.Check(d[name]), `${name}: ${[...check.Errors(d[name])].map((e) => e.path + ' ' + e.message).join('; ')}`);
    }
    assert.equal(d.server.max_players, 40);
    assert.equal(d.basic.min_bandwidth, 800000);
    assert.equal(d.profile.reduced_damage, 0);
    assert.equal(d.launch.world, 'empty');
    assert.equal(d.launch.limit_fps, 50);
    assert.equal(d.rcon.max_ping, 200);
    assert.equal(d.rcon.enabled, 1);
  });

  it('has every field the spec names, with its type', () => {
    const types: Record<string, Record<string, string>> = {
      server: {
        hostname: 'string',
        max_players: 'integer',
        password: 'string',
        password_admin: 'string',
        forced_difficulty: 'integer',
        anticheat: 'integer',
        verify_signatures: 'integer',
        motd_lines: 'array',
        motd_interval: 'number',
        admin_uids: 'array',
        missions: 'array',
      },
      basic: { max_bandwidth: 'integer', min_bandwidth: 'integer', max_msg_send: 'integer' },
      profile: {
        third_person_view: 'integer',
        weapon_crosshair: 'integer',
        ai_level_preset: 'integer',
        skill_ai: 'number',
        precision_ai: 'number',
        reduced_damage: 'integer',
      },
      launch: { world: 'string', limit_fps: 'integer', auto_init: 'boolean', load_mission_to_memory: 'boolean' },
      rcon: { rcon_password: 'string', rcon_port: 'integer', max_ping: 'integer', enabled: 'integer' },
    };
    for (const [section, fields] of Object.entries(types)) {
      for (const [field, type] of Object.entries(fields)) {
        assert.equal(
          (sections as unknown as Record<string, { properties: Record<string, { type?: string }> }>)[section].properties[field]?.type,
          type,
          `${section}.${field}`,
        );
      }
    }
    const sensitive = Object.entries(sections).flatMap(([s, o]) =>
      Object.entries(o.properties)
        .filter(([, f]) => isSensitive(f))
        .map(([n]) => `${s}.${n}`),
    );
    assert.deepEqual(sensitive.sort(), [
      'rcon.rcon_password',
      'server.password',
      'server.password_admin',
      'server.server_command_password',
    ]);
  });

  it('generates letters-and-digits credentials BattlEye accepts', () => {
    const a = gamea.capabilities.config_generator.generateCredentials();
    const b = gamea.capabilities.config_generator.generateCredentials();
    assert.match(String(a.rcon.rcon_password), /^[A-Za-z0-9]{16,32}$/);
    assert.match(String(a.server.password_admin), /^[A-Za-z0-9]{16,32}$/);
    assert.notEqual(a.rcon.rcon_password, b.rcon.rcon_password);
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
    const base = parseCfg(renderServerCfg(defaults().server));
    const config = defaults();
    config.server.hostname = hostile;
    config.server.motd_lines = ['line "1"', '};\nclass Missions {'];
    config.server.on_user_connected = '"; BattlEye = 0; x = "';
    const text = renderServerCfg(config.server);
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
    config.server.missions = [
      { name: 'co10_Escape.Altis', difficulty: 'Veteran' },
      { name: 'dm.Stratis', difficulty: '' },
    ];
    config.server.forced_difficulty = 2;
    config.server.admin_uids = ['76561198000000000'];
    const cfg = parseCfg(renderServerCfg(config.server));
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
    const basic = defaults().basic;
    basic.min_error_to_send = 0.0000001;
    const text = renderBasicCfg(basic);
    assert.doesNotMatch(text, /e-|e\+/);
    const cfg = parseCfg(text);
    assert.equal(cfg.MinBandwidth, 800000);
    assert.equal(cfg.MaxBandwidth, 10000000000);
    assert.equal(cfg.MinErrorToSend, 0.0000001);
    assert.deepEqual(cfg.sockets, { maxPacketSize: 1400 });
  });

  it('writes numbers back with the precision they were given', () => {
    const basic = { ...defaults().basic, min_error_to_send: 0.000099999997, min_error_to_send_near: 0.30000000000000004 };
    const text = renderBasicCfg(basic);
    assert.match(text, /^MinErrorToSend = 0\.000099999997;$/m);
    assert.match(text, /^MinErrorToSendNear = 0\.30000000000000004;$/m);
    assert.equal(parseCfg(text).MinErrorToSend, 0.000099999997);
    for (const n of [1e-7, 1.5e-10, 123456789012345680000, 1e21, -2.5e-8, 0.1, 42]) {
      const line = renderBasicCfg({ ...defaults().basic, min_error_to_send: n })
        .split('\n')
        .find((l) => l.startsWith('MinErrorToSend '))!;
      const written = line.slice('MinErrorToSend = '.length, -1);
      assert.match(written, /^-?\d+(\.\d+)?$/, line);
      assert.equal(Number(written), n, line);
    }
  });

  it('writes the settings real server.cfg files use, each only where it says something', () => {
    const server = defaults().server;
    const plain = parseCfg(renderServerCfg(server));
    for (const left of [
      'missionWhitelist',
      'allowedLoadFileExtensions',
      'disableChannels',
      'requiredBuild',
      'missionsToShutdown',
      'regularCheck',
      'filePatchingExceptions',
    ]) {
      assert.ok(!(left in plain), `${left} left to the game's default`);
    }
    assert.deepEqual(plain.kickTimeout, [
      [0, -1],
      [1, 180],
      [2, 180],
      [3, 180],
    ]);
    assert.deepEqual(plain.AdvancedOptions, {
      LogObjectNotFound: true,
      SkipDescriptionParsing: false,
      ignoreMissionLoadErrors: false,
      queueSizeLogG: 1000000,
    });
    assert.equal(plain.steamProtocolMaxDataSize, 1024);
    Object.assign(server, {
      allowed_load_file_extensions: ['hpp', 'sqf'],
      allowed_preprocess_file_extensions: ['sqf'],
      allowed_html_load_extensions: ['htm', 'html'],
      mission_whitelist: ['co10_Escape.Altis'],
      kick_timeout_battleye: -2,
      disable_text_channels: ['0', '2'],
      disable_voice_channels: ['2', '5'],
      force_rotor_lib_simulation: 1,
      required_build: 150000,
      regular_check: '{}',
      missions_to_server_restart: 5,
      missions_to_shutdown: 10,
      on_user_kicked: 'diag_log _this',
      battleye_license: 1,
      headless_clients: ['127.0.0.1'],
      local_client: ['127.0.0.1'],
      advanced_ignore_mission_load_errors: true,
    });
    const cfg = parseCfg(renderServerCfg(server));
    assert.deepEqual(cfg.allowedLoadFileExtensions, ['hpp', 'sqf']);
    assert.deepEqual(cfg.allowedHTMLLoadExtensions, ['htm', 'html']);
    assert.deepEqual(cfg.missionWhitelist, ['co10_Escape.Altis']);
    assert.deepEqual(cfg.kickTimeout, [
      [0, -1],
      [1, 180],
      [2, -2],
      [3, 180],
    ]);
    assert.deepEqual(cfg.disableChannels, [
      [0, true, false],
      [2, true, true],
      [5, false, true],
    ]);
    assert.equal(cfg.forceRotorLibSimulation, 1);
    assert.equal(cfg.requiredBuild, 150000);
    assert.equal(cfg.regularCheck, '{}');
    assert.equal(cfg.missionsToServerRestart, 5);
    assert.equal(cfg.onUserKicked, 'diag_log _this');
    assert.equal(cfg.battleyeLicense, 1);
    assert.deepEqual(cfg.headlessClients, ['127.0.0.1']);
    assert.equal((cfg.AdvancedOptions as CfgClass).ignoreMissionLoadErrors, true);
  });

  it('appends checked extra lines verbatim, and refuses what would not parse or sets a key Garrison writes', () => {
    const { checkSection } = gamea.capabilities.config_generator;
    const extra = [
      '// votes: admins only',
      'allowedVoteCmds[] = {};',
      'allowedVotedAdminCmds[] = {{"kick", false, true, 0.51}};',
      'enablePlayerDiag = 1; /* trailing */',
      'class CustomThing: Base',
      '{',
      '    value = some_bare_word;',
      '};',
    ];
    const server = { ...defaults().server, extra_lines: extra };
    assert.equal(checkSection('server', server), null);
    const text = renderServerCfg(server);
    assert.ok(text.endsWith(extra.join('\n') + '\n'), 'appended as written');
    const cfg = parseCfg(text);
    assert.deepEqual(cfg.allowedVoteCmds, []);
    assert.equal((cfg.CustomThing as CfgClass).value, 'some_bare_word');

    const problem = (section: string, lines: string[] | Record<string, string[]>) =>
      checkSection(section, { ...defaults()[section], ...(Array.isArray(lines) ? { extra_lines: lines } : lines) });
    assert.equal(problem('server', ['a = 1;', 'b = 2']), "extra_lines line 2: the setting of b does not end with ';'");
    assert.equal(problem('server', ['motd2[] = {"a", "b";']), "extra_lines line 1: expected ',' or '}' in a list");
    assert.equal(
      problem('server', ['x = "open;']),
      'extra_lines line 1: a string is not closed on its line (a quote inside one is written "")',
    );
    assert.equal(problem('server', ['class A', '{', '  x = 1;', '}']), "extra_lines line 4: the '}' closing class A needs a ';' after it");
    assert.equal(problem('server', ['class A', '{', '  x = 1;']), "extra_lines line 1: class A is not closed with '};'");
    assert.equal(problem('server', ['};']), "extra_lines line 1: '}' closes nothing");
    assert.equal(
      problem('server', ['x = 1;', 'hostName = "twice";']),
      "extra_lines line 2: hostName is written by Garrison: use the field 'hostname' instead",
    );
    assert.equal(
      problem('server', ['class Missions {};']),
      "extra_lines line 1: Missions is written by Garrison: use the field 'missions' instead",
    );
    assert.equal(
      problem('server', ['kickTimeout[] = {};']),
      'extra_lines line 1: kickTimeout is written by Garrison: use kick_timeout_manual, kick_timeout_console, ' +
        'kick_timeout_battleye, kick_timeout_harmless instead',
    );
    assert.equal(
      problem('basic', ['MaxMsgSend = 256;']),
      "extra_lines line 1: MaxMsgSend is written by Garrison: use the field 'max_msg_send' instead",
    );
    assert.equal(
      problem('basic', ['class sockets { x = 1; };']),
      "extra_lines line 1: sockets is written by Garrison: use the field 'max_packet_size' instead",
    );
    assert.equal(
      problem('profile', ['difficulty = "Regular";']),
      "extra_lines line 1: difficulty is written by Garrison: use the field 'difficulty' instead",
    );
    assert.equal(
      problem('profile', { custom_difficulty_lines: ['aiLevelPreset = 1;'] }),
      'custom_difficulty_lines line 1: aiLevelPreset is written by Garrison itself',
    );
    assert.equal(
      problem('profile', { options_lines: ['mapContentFriendly = 1;', 'mapContent = 1;'] }),
      'options_lines line 2: mapContent is written by Garrison itself',
    );
    assert.equal(
      problem('profile', {
        custom_difficulty_lines: ['displayName = "Ours";', 'levelAI = "AILevelMedium";'],
        options_lines: ['mapContentFriendly = 1;'],
      }),
      null,
    );
    assert.equal(
      problem('server', ['class Inner {', '  hostname = "nested is fine";', '};']),
      null,
      'a key inside a class is not the top-level one',
    );
    assert.equal(problem('launch', ['anything']), null, 'sections without a file are not checked');
  });

  it('renders the profile with the difficulty options and the AI level beside them', () => {
    const profile = defaults().profile;
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
    const rcon = { ...defaults().rcon, rcon_password: 'Secret123' };
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
    Object.assign(config.launch, {
      auto_init: true,
      load_mission_to_memory: true,
      world: 'Altis',
      limit_fps: 120,
      max_mem: 8192,
      ex_threads: 7,
    });
    const args = launch(config, ctx, {
      mods: [
        { name: '@CBA_A3', is_server_mod: false },
        { name: '@ace', is_server_mod: false },
        { name: '@admin', is_server_mod: true },
      ],
    });
    for (const a of [
      '-autoInit',
      '-loadMissionToMemory',
      '-world=Altis',
      '-limitFPS=120',
      '-maxMem=8192',
      '-exThreads=7',
      '-mod=@CBA_A3;@ace',
      '-serverMod=@admin',
    ]) {
      assert.ok(args.includes(a), `${a} in ${args.join(' ')}`);
    }
  });

  it('refuses a mod name that would smuggle in another mod', () => {
    assert.throws(
      () => launch(defaults(), ctx, { mods: [{ name: '@a;@b', is_server_mod: false }] }),
      /mod folder "@a;@b" cannot contain ";"/,
    );
  });

  it('carries mod folders with brackets, spaces and dots whole, each list as one argument', () => {
    const args = launch(defaults(), ctx, {
      mods: [
        { name: '@CUP Terrains - Core', is_server_mod: false },
        { name: '@ace.x64', is_server_mod: false },
        { name: '@VULTURE[Tech Mod]', is_server_mod: true },
      ],
    });
    assert.ok(args.includes('-mod=@CUP Terrains - Core;@ace.x64'));
    assert.ok(args.includes('-serverMod=@VULTURE[Tech Mod]'));
    for (const bad of ['@trailing ', '@ lead', '@a/b', '@a|b', 'noat']) {
      assert.throws(() => launch(defaults(), ctx, { mods: [{ name: bad, is_server_mod: false }] }), /mod folder/, bad);
    }
  });
});

describe('gamea config fields: help for the editor', () => {
  it('says what every field an admin edits does', () => {
    const missing: string[] = [];
    for (const [section, schema] of Object.entries(gamea.capabilities.config_generator.sections)) {
      for (const [field, property] of Object.entries(
        (schema as { properties: Record<string, { description?: string; 'x-widget'?: { widget: string } }> }).properties,
      )) {
        if (property['x-widget']?.widget !== 'hidden' && !property.description) missing.push(`${section}.${field}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});
