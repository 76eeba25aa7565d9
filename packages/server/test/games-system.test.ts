import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { endpoints } from '@garrison/core';
import { ADMIN_PASSWORD, expectError, startHarness, tokenFor, type Harness } from './helpers.js';

/** The values a JSON Schema allows: its `enum`, or the `const` of each of its `anyOf` (TypeBox's union of literals). */
const valuesOf = (schema: { enum?: unknown[]; anyOf?: { const: unknown }[] }) => schema.enum ?? schema.anyOf?.map((s) => s.const);

const CAPABILITIES = ['config_generator', 'process_config', 'log_parser', 'remote_admin', 'mission_manager', 'mod_manager', 'ban_manager'];

describe('games, system and the HTTP edges', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('lists game types publicly, the default one marked', async () => {
    const res = await h.api('GET', '/games');
    assert.equal(res.status, 200);
    const games: { game_type: string; default: boolean }[] = res.body.data;
    assert.deepEqual(
      games.find((g) => g.game_type === 'gamea'),
      { game_type: 'gamea', display_name: 'Gamea', version: '1.0.0', capabilities: CAPABILITIES, default: true },
    );
    assert.deepEqual(
      games.filter((g) => g.default).map((g) => g.game_type),
      ['gamea'],
      'one default: what a server created without a game type gets',
    );
  });

  it('describes one game type, and 404 GAME_TYPE_NOT_FOUND for an unknown one', async () => {
    const res = await h.api('GET', '/games/gamea');
    assert.equal(res.status, 200);
    const { identity_kinds, remote_admin_operations, remote_admin_port, missions, presentation, steam, ...identity } = res.body.data;
    assert.deepEqual(identity, {
      game_type: 'gamea',
      display_name: 'Gamea',
      version: '1.0.0',
      capabilities: CAPABILITIES,
      default: true,
      schema_version: '1.0',
      config_sections: ['server', 'basic', 'profile', 'launch', 'rcon'],
      allowed_executables: ['gameaserver_x64.exe', 'gameaserver.exe'],
    });
    assert.ok(identity_kinds && remote_admin_operations && missions && presentation && steam, 'what the console reads of the game');
    assert.equal(remote_admin_port, 'own', 'BattlEye listens on a port of its own');
    for (const path of ['/games/nope', '/games/nope/config-schema', '/games/nope/defaults']) {
      expectError(await h.api('GET', path), 404, 'GAME_TYPE_NOT_FOUND');
    }
  });

  it('says what the console shows of the game: identity kinds, remote-admin operations, missions and words', async () => {
    const game = (await h.api('GET', '/games/gamea')).body.data;
    // A ban takes a GUID by default, or the address a player connects from.
    assert.deepEqual(
      game.identity_kinds.map((k: { kind: string; address: boolean }) => [k.kind, k.address]),
      [
        ['GUID', false],
        ['IP', true],
      ],
    );
    for (const k of game.identity_kinds) assert.ok(k.label && k.example, `${k.kind} has a label and an example`);
    // The shapes by which the console tells a value's kind: the console holds no game's rule.
    const fits = (g: { identity_kinds: { kind: string; pattern?: string }[] }, value: string) =>
      g.identity_kinds.filter((k) => k.pattern !== undefined && new RegExp(k.pattern).test(value)).map((k) => k.kind);
    assert.equal(game.identity_kinds[0].pattern, '^[0-9a-fA-F]{32}$');
    assert.deepEqual(
      ['80a5885ebe2420bab5e1581234567890', '203.0.113.7', '2001:db8::1', 'STEAM_0:1:1234'].map((v) => fits(game, v)),
      [['GUID'], ['IP'], ['IP'], []],
    );
    const gameb = (await h.api('GET', '/games/gameb')).body.data;
    assert.deepEqual(
      ['STEAM_0:1:1234', '[U:1:2469]', '203.0.113.7', '2001:db8::1'].map((v) => fits(gameb, v)),
      [['STEAMID'], ['STEAMID'], ['IP'], []],
    );
    assert.deepEqual(game.remote_admin_operations, ['players', 'kick', 'ban', 'unban', 'say', 'command']);
    assert.equal(game.missions.extension, '.pbo');
    assert.equal(game.missions.label, 'Mission');
    // The rotation's options as plain JSON Schema: the difficulty and its values, the default `""` first.
    const options = game.missions.rotation_options;
    assert.equal(options.type, 'object');
    assert.deepEqual(Object.keys(options.properties), ['difficulty']);
    assert.deepEqual(valuesOf(options.properties.difficulty), ['', 'Recruit', 'Regular', 'Veteran', 'Custom']);
    assert.ok(!JSON.stringify(options).includes('Symbol'), 'no TypeBox internals');
    assert.deepEqual(game.presentation, {
      example_exe_path: '/srv/gamea/gameaserver_x64.exe',
      backup_contents: 'profile (player persistence), its generated config files, its BattlEye folder with the bans',
      import_files: "server.cfg, basic.cfg, the profile, BattlEye's config and bans.txt",
      example_command_line: 'gameaserver_x64.exe -port=2302 -config=server.cfg -mod=@CBA_A3;@ace',
    });
  });

  it('says what each game declares of its Steam apps, as the adapter gives it', async () => {
    const first = (await h.api('GET', '/games/gamea')).body.data.steam;
    assert.deepEqual(
      [first.server_app_id, first.workshop_app_id, first.anonymous_server, first.mod_folder_prefix, first.keys_folder],
      [233780, 107410, false, '@', 'keys'],
    );
    assert.deepEqual(
      first.branches.map((b: { name: string }) => b.name),
      ['public', 'profiling', 'performance', 'contact', 'creatordlc'],
    );
    assert.deepEqual([first.key_file_extension, first.protected_keys, first.lower_case_on_linux], ['.bikey', ['a3.bikey'], true]);
    const second = (await h.api('GET', '/games/gameb')).body.data.steam;
    assert.deepEqual(
      [second.server_app_id, second.workshop_app_id, second.anonymous_server, second.keys_folder, second.branches.length],
      [232330, null, true, null, 1],
    );
  });

  it("lists the game's remote-admin commands for command lines to offer", async () => {
    const res = await h.api('GET', '/games/gamea/commands');
    assert.equal(res.status, 200);
    const commands: string[] = res.body.data;
    // The spec's commands for gamea, and BattlEye's own.
    for (const known of [
      '#restart',
      '#reassign',
      '#missions',
      '#lock',
      '#unlock',
      '#mission <NAME.TERRAIN> [difficulty]',
      '#shutdown',
      '#monitor <N>',
      'say -1 <MESSAGE>',
      'players',
      'bans',
    ]) {
      assert.ok(commands.includes(known), known);
    }
    expectError(await h.api('GET', '/games/nope/commands'), 404, 'GAME_TYPE_NOT_FOUND');
  });

  it('serves a JSON Schema per section, with bounds and defaults', async () => {
    const res = await h.api('GET', '/games/gamea/config-schema');
    assert.equal(res.status, 200);
    const schema = res.body.data;
    assert.deepEqual(Object.keys(schema).sort(), ['basic', 'launch', 'profile', 'rcon', 'server']);
    assert.equal(schema.server.type, 'object');
    assert.equal(schema.server.additionalProperties, false);
    assert.deepEqual(
      [
        schema.server.properties.max_players.type,
        schema.server.properties.max_players.minimum,
        schema.server.properties.max_players.maximum,
      ],
      ['integer', 1, 1000],
    );
    assert.equal(schema.rcon.properties.rcon_port.maximum, 65535);
    assert.equal(schema.launch.properties.auto_init.type, 'boolean');
    assert.equal(schema.server.properties.motd_lines.type, 'array');
  });

  it('serves the defaults of every section', async () => {
    const res = await h.api('GET', '/games/gamea/defaults');
    assert.equal(res.status, 200);
    const d = res.body.data;
    assert.equal(d.server.max_players, 40);
    assert.equal(d.basic.min_bandwidth, 800000);
    assert.equal(d.profile.reduced_damage, 0);
    assert.equal(d.launch.world, 'empty');
    assert.equal(d.launch.limit_fps, 50);
    assert.equal(d.rcon.max_ping, 200);
    assert.equal(d.rcon.enabled, 1);
    assert.deepEqual(d.server.missions, []);
  });

  it('answers the health check unwrapped and without a token', async () => {
    const res = await h.api('GET', '/system/health');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  it('reports the system status to any role, without the error member', async () => {
    const viewer = await tokenFor(h, 'viewer');
    const res = await h.api('GET', '/system/status', { token: viewer.token });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['data', 'success']);
    assert.deepEqual(res.body.data, { version: '1.0.0', running_servers: 0, total_servers: 0, supported_games: ['gamea', 'gameb'] });
    expectError(await h.api('GET', '/system/status'), 401, 'UNAUTHORIZED');
  });

  it('answers unknown routes and methods with the 404 envelope', async () => {
    expectError(await h.api('GET', '/nope'), 404, 'NOT_FOUND');
    expectError(await h.api('PATCH', '/servers'), 404, 'NOT_FOUND');
    const outside = await fetch(`${h.server.url}/elsewhere`);
    assert.equal(outside.status, 404);
    assert.equal(((await outside.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  it('refuses a non-JSON body with 400', async () => {
    const res = await h.api('POST', '/auth/login', {
      raw: 'username=admin',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('serves an OpenAPI 3.1 document covering every implemented endpoint', async () => {
    const res = await fetch(`${h.server.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as Record<string, any>;
    assert.match(doc.openapi, /^3\.1/);
    for (const e of Object.values(endpoints)) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      assert.ok(op, `${e.method} ${e.path} is documented`);
      assert.equal(op.operationId, e.operationId);
    }
    assert.ok(doc.components.schemas.ServerDetail);
    assert.ok(doc.components.schemas.FailureEnvelope);
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of new Set(refs)) assert.ok(doc.components.schemas[ref.split('/').pop()!], `${ref} resolves`);
    const committed = JSON.parse(await readFile(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
    assert.deepEqual(doc, committed, 'docs/openapi.json is out of date: run npm run openapi');
  });
});

describe('rate limits', () => {
  it('allows 5 login attempts a minute per client IP, then 429 RATE_LIMITED with Retry-After', async () => {
    const h = await startHarness({ loginRateLimit: 5 });
    try {
      // The harness logged in twice already (its admin and its viewer).
      for (let i = 0; i < 3; i += 1)
        assert.equal((await h.api('POST', '/auth/login', { body: { username: 'admin', password: 'wrong-pw' } })).status, 401);
      const limited = await h.api('POST', '/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
      expectError(limited, 429, 'RATE_LIMITED');
      const retry = Number(limited.headers.get('retry-after'));
      assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
      assert.equal((await h.api('GET', '/auth/me', { token: h.adminToken })).status, 200, 'other endpoints are not affected');
    } finally {
      await h.close();
    }
  });

  it('allows a set number of requests a minute per token; token-less public reads are not counted', async () => {
    const h = await startHarness({ rateLimit: 3 });
    try {
      // The harness spent one request of the admin token creating its viewer.
      for (let i = 0; i < 2; i += 1) {
        const ok = await h.api('GET', '/servers', { token: h.adminToken });
        assert.equal(ok.status, 200);
        assert.equal(ok.headers.get('ratelimit-limit'), '3');
        assert.equal(ok.headers.get('ratelimit-remaining'), String(1 - i), 'the budget left after this request');
        const reset = Number(ok.headers.get('ratelimit-reset'));
        assert.ok(reset >= 1 && reset <= 60, `RateLimit-Reset ${reset}`);
      }
      const refused = await h.api('GET', '/servers', { token: h.adminToken });
      expectError(refused, 429, 'RATE_LIMITED');
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      assert.ok(Number(refused.headers.get('ratelimit-reset')) >= 1);
      assert.equal((await h.api('GET', '/servers', { token: h.viewerToken })).status, 200, 'another token has its own budget');
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await h.api('GET', '/system/health')).status, 200);
        assert.equal((await h.api('GET', '/games')).status, 200);
      }
    } finally {
      await h.close();
    }
  });
});
