import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, expectError, freshPort, startHarness, withDatabase, type Harness } from './helpers.js';

const SECTIONS = ['basic', 'launch', 'profile', 'rcon', 'server'];

describe('server config', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('reads every section with _meta, the spec defaults and secrets masked', async () => {
    const s = await createServer(h);
    for (const token of [h.adminToken, h.viewerToken]) {
      const res = await h.api('GET', `/servers/${s.id}/config`, { token });
      assert.equal(res.status, 200);
      const config = res.body.data;
      assert.deepEqual(Object.keys(config).sort(), SECTIONS);
      for (const name of SECTIONS) {
        const { secrets_set: _, ...meta } = config[name]._meta;
        assert.deepEqual(meta, { config_version: 1, schema_version: '1.0' });
      }
      // Masked alike, but which are set is said: the generated ones are, the player password is not.
      assert.deepEqual(config.server._meta.secrets_set, { password: false, password_admin: true, server_command_password: false });
      assert.deepEqual(config.rcon._meta.secrets_set, { rcon_password: true });
      assert.deepEqual(config.basic._meta.secrets_set, {});
      assert.equal(config.server.max_players, 40);
      assert.equal(config.basic.min_bandwidth, 800000);
      assert.equal(config.profile.reduced_damage, 0);
      assert.equal(config.launch.world, 'empty');
      assert.equal(config.launch.limit_fps, 50);
      assert.equal(config.rcon.max_ping, 200);
      assert.equal(config.rcon.enabled, 1);
      assert.equal(config.rcon.rcon_port, s.rcon_port);
      assert.equal(config.server.password_admin, '***');
      assert.equal(config.server.password, '***');
      assert.equal(config.rcon.rcon_password, '***');
      const text = JSON.stringify(res.body);
      assert.ok(!text.includes(s.password_admin) && !text.includes(s.rcon_password), 'no secret in a config read');
    }
  });

  it('reads one section, and 404 for a section the adapter does not have', async () => {
    const s = await createServer(h);
    const res = await h.api('GET', `/servers/${s.id}/config/launch`, { token: h.viewerToken });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.world, 'empty');
    assert.equal(res.body.data._meta.config_version, 1);
    expectError(await h.api('GET', `/servers/${s.id}/config/nope`, { token: h.viewerToken }), 404, 'NOT_FOUND');
    expectError(await h.api('PUT', `/servers/${s.id}/config/nope`, { token: h.adminToken, body: { config_version: 1 } }), 404, 'NOT_FOUND');
    expectError(await h.api('GET', '/servers/999999/config', { token: h.viewerToken }), 404, 'NOT_FOUND');
  });

  it('serves widget hints per section and field; schema and preview are not section names', async () => {
    const s = await createServer(h);
    const res = await h.api('GET', `/servers/${s.id}/config/schema`, { token: h.viewerToken });
    assert.equal(res.status, 200);
    const hints = res.body.data;
    assert.deepEqual(Object.keys(hints).sort(), SECTIONS);
    assert.deepEqual(hints.server.forced_difficulty.options, ['0 - Recruit', '1 - Regular', '2 - Veteran', '3 - Custom']);
    assert.equal(hints.server.forced_difficulty.widget, 'select');
    assert.equal(hints.server.password.widget, 'password');
    assert.equal(hints.server.admin_uids.widget, 'tag-list');
    assert.equal(hints.server.motd_lines.widget, 'textarea');
    assert.equal(hints.server.missions.widget, 'hidden');
    assert.equal(hints.server.anticheat.widget, 'toggle');
    assert.deepEqual([hints.server.max_players.widget, hints.server.max_players.min, hints.server.max_players.max], ['number', 1, 1000]);
    const total = Object.values(hints).reduce((n: number, fields) => n + Object.keys(fields as object).length, 0);
    assert.ok(total >= 75, `about 80 fields, got ${total}`);
    for (const fields of Object.values<Record<string, { widget: string; label: string }>>(hints)) {
      for (const hint of Object.values(fields)) assert.ok(hint.widget && hint.label);
    }
  });

  it('previews the rendered files to admins only, with credentials in clear', async () => {
    const s = await createServer(h);
    const res = await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken });
    assert.equal(res.status, 200);
    const files = res.body.data;
    assert.deepEqual(Object.keys(files).sort(), ['BEServer_x64.cfg', 'basic.cfg', 'server.GameaProfile', 'server.cfg']);
    assert.match(files['server.cfg'], new RegExp(`passwordAdmin = "${s.password_admin}";`));
    assert.match(files['server.cfg'], /maxPlayers = 40;/);
    assert.match(files['BEServer_x64.cfg'], new RegExp(`^RConPassword ${s.rcon_password}$`, 'm'));
    assert.match(files['BEServer_x64.cfg'], new RegExp(`^RConPort ${s.rcon_port}$`, 'm'));
    assert.match(files['basic.cfg'], /MinBandwidth = 800000;/);
    assert.match(files['server.GameaProfile'], /class DifficultyPresets/);
    expectError(await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.viewerToken }), 403, 'FORBIDDEN');
  });

  it('updates part of a section, keeping other fields and bumping config_version', async () => {
    const s = await createServer(h);
    const res = await h.api('PUT', `/servers/${s.id}/config/server`, {
      token: h.adminToken,
      body: { hostname: 'My "Server"', max_players: 64, motd_lines: ['Welcome', 'Have fun'], config_version: 1 },
    });
    assert.equal(res.status, 200);
    const section = res.body.data;
    assert.equal(section.hostname, 'My "Server"');
    assert.equal(section.max_players, 64);
    assert.deepEqual(section.motd_lines, ['Welcome', 'Have fun']);
    assert.equal(section.anticheat, 1, 'omitted fields keep their value');
    assert.equal(section.password_admin, '***');
    assert.deepEqual(section._meta, {
      config_version: 2,
      schema_version: '1.0',
      secrets_set: { password: false, password_admin: true, server_command_password: false },
    });
    const again = await h.api('GET', `/servers/${s.id}/config/server`, { token: h.viewerToken });
    assert.equal(again.body.data.max_players, 64);
    assert.equal(again.body.data._meta.config_version, 2);
    const other = await h.api('GET', `/servers/${s.id}/config/basic`, { token: h.viewerToken });
    assert.equal(other.body.data._meta.config_version, 1, 'sections are versioned separately');
  });

  it('sets and clears a secret: masked in every answer, said to be set or not in _meta, each change audited by field name', async () => {
    const s = await createServer(h);
    const put = (body: Record<string, unknown>) => h.api('PUT', `/servers/${s.id}/config/server`, { token: h.adminToken, body });
    const set = await put({ password: 'letmein', config_version: 1 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.data.password, '***');
    assert.equal(set.body.data._meta.secrets_set.password, true);
    // `***` sent back keeps the secret; an empty string clears it (the game then lets anyone join).
    const kept = await put({ password: '***', hostname: 'Kept', config_version: 2 });
    assert.equal(kept.body.data._meta.secrets_set.password, true);
    const cleared = await put({ password: '', config_version: 3 });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal(cleared.body.data.password, '***', 'still masked: a read never tells a value');
    assert.equal(cleared.body.data._meta.secrets_set.password, false);
    const read = (await h.api('GET', `/servers/${s.id}/config`, { token: h.viewerToken })).body.data;
    assert.deepEqual(read.server._meta.secrets_set, { password: false, password_admin: true, server_command_password: false });
    const rendered = (await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken })).body.data['server.cfg'] as string;
    assert.match(rendered, /^password = "";$/m, 'the game is told there is no password');

    const trail = (await h.api('GET', `/servers/${s.id}/events?event_type=config_changed`, { token: h.adminToken })).body.data;
    const entries = trail.events as { event_type: string; detail: { fields: string[]; config_version: number } }[];
    const changes = entries
      .filter((e) => e.event_type === 'config_changed')
      .map((e) => e.detail)
      .sort((a, b) => a.config_version - b.config_version);
    assert.deepEqual(
      changes.map((d) => d.fields),
      [['password'], ['password', 'hostname'], ['password']],
    );
    assert.ok(!JSON.stringify(trail).includes('letmein'), 'no secret in the audit trail');
  });

  it('answers a stale config_version with 409 CONFIG_VERSION_CONFLICT carrying the current config', async () => {
    const s = await createServer(h);
    assert.equal(
      (await h.api('PUT', `/servers/${s.id}/config/profile`, { token: h.adminToken, body: { skill_ai: 0.9, config_version: 1 } })).status,
      200,
    );
    const res = await h.api('PUT', `/servers/${s.id}/config/profile`, { token: h.adminToken, body: { skill_ai: 0.1, config_version: 1 } });
    const error = expectError(res, 409, 'CONFIG_VERSION_CONFLICT');
    assert.equal(error.current_version, 2);
    const current = error.current_config as Record<string, unknown>;
    assert.equal(current.skill_ai, 0.9);
    assert.ok(!('_meta' in current));
    const rcon = await h.api('PUT', `/servers/${s.id}/config/rcon`, { token: h.adminToken, body: { config_version: 7 } });
    assert.equal((expectError(rcon, 409, 'CONFIG_VERSION_CONFLICT').current_config as Record<string, unknown>).rcon_password, '***');
  });

  it('lets exactly one of many concurrent writers with the same version win', async () => {
    const s = await createServer(h);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.api('PUT', `/servers/${s.id}/config/basic`, { token: h.adminToken, body: { max_msg_send: 100 + i, config_version: 1 } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409]);
    const winner = results.find((r) => r.status === 200)!.body.data.max_msg_send;
    const now = await h.api('GET', `/servers/${s.id}/config/basic`, { token: h.viewerToken });
    assert.equal(now.body.data.max_msg_send, winner);
    assert.equal(now.body.data._meta.config_version, 2);
  });

  it('refuses invalid values with 422 INVALID_CONFIG naming the field', async () => {
    const s = await createServer(h);
    const put = (section: string, body: object) =>
      h.api('PUT', `/servers/${s.id}/config/${section}`, { token: h.adminToken, body: { config_version: 1, ...body } });
    const cases: [string, object, RegExp][] = [
      ['server', { max_players: 0 }, /max_players/],
      ['server', { max_players: 'many' }, /max_players/],
      ['server', { anticheat: 2 }, /anticheat/],
      ['server', { forced_difficulty: 9 }, /forced_difficulty/],
      ['server', { motd_lines: 'one line' }, /motd_lines/],
      ['server', { admin_uids: ['not a uid'] }, /admin_uids/],
      ['server', { missions: [{ name: 'x', difficulty: 'Hard' }] }, /missions/],
      ['server', { favourite_colour: 'red' }, /favourite_colour/],
      ['launch', { world: 'Altis; rm -rf' }, /world/],
      ['launch', { auto_init: 1 }, /auto_init/],
      ['rcon', { rcon_password: 'has space' }, /rcon_password/],
      ['rcon', { rcon_port: 80 }, /rcon_port/],
      ['profile', { skill_ai: 1.5 }, /skill_ai/],
    ];
    for (const [section, body, field] of cases) {
      const error = expectError(await put(section, body), 422, 'INVALID_CONFIG');
      assert.match(error.message, field, `${section} ${JSON.stringify(body)}`);
    }
    const missing = expectError(
      await h.api('PUT', `/servers/${s.id}/config/server`, { token: h.adminToken, body: { max_players: 10 } }),
      422,
      'INVALID_CONFIG',
    );
    assert.match(missing.message, /config_version/);
    expectError(
      await h.api('PUT', `/servers/${s.id}/config/server`, { token: h.adminToken, raw: '{"config_version": 1,' }),
      422,
      'INVALID_CONFIG',
    );
    const after = await h.api('GET', `/servers/${s.id}/config/server`, { token: h.viewerToken });
    assert.equal(after.body.data._meta.config_version, 1, 'a refused write changes nothing');
  });

  it('writes rcon_port through to the server record, refusing a port in use', async () => {
    const s = await createServer(h);
    const other = await createServer(h);
    const port = freshPort();
    const res = await h.api('PUT', `/servers/${s.id}/config/rcon`, {
      token: h.adminToken,
      body: { rcon_port: port, max_ping: 300, config_version: 1 },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.rcon_port, port);
    assert.equal((await h.api('GET', `/servers/${s.id}`, { token: h.viewerToken })).body.data.rcon_port, port);
    const preview = await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken });
    assert.match(preview.body.data['BEServer_x64.cfg'], new RegExp(`RConPort ${port}`));
    expectError(
      await h.api('PUT', `/servers/${s.id}/config/rcon`, { token: h.adminToken, body: { rcon_port: other.game_port, config_version: 2 } }),
      409,
      'PORT_IN_USE',
    );
    // A port changed on the server record shows in the rcon section too.
    const moved = freshPort();
    await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { rcon_port: moved } });
    assert.equal((await h.api('GET', `/servers/${s.id}/config/rcon`, { token: h.viewerToken })).body.data.rcon_port, moved);
  });

  it('keeps a secret when the masked value is sent back, and replaces it when a new one is sent', async () => {
    const s = await createServer(h);
    const read = await h.api('GET', `/servers/${s.id}/config/rcon`, { token: h.adminToken });
    const { _meta, ...fields } = read.body.data;
    assert.equal(
      (
        await h.api('PUT', `/servers/${s.id}/config/rcon`, {
          token: h.adminToken,
          body: { ...fields, config_version: _meta.config_version },
        })
      ).status,
      200,
    );
    let preview = await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken });
    assert.match(preview.body.data['BEServer_x64.cfg'], new RegExp(`RConPassword ${s.rcon_password}`));
    await h.api('PUT', `/servers/${s.id}/config/rcon`, { token: h.adminToken, body: { rcon_password: 'NewSecret42', config_version: 2 } });
    preview = await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken });
    assert.match(preview.body.data['BEServer_x64.cfg'], /RConPassword NewSecret42/);
  });

  it('keeps config writes to admins', async () => {
    const s = await createServer(h);
    expectError(
      await h.api('PUT', `/servers/${s.id}/config/server`, { token: h.viewerToken, body: { max_players: 2, config_version: 1 } }),
      403,
      'FORBIDDEN',
    );
    expectError(await h.api('GET', `/servers/${s.id}/config`), 401, 'UNAUTHORIZED');
  });

  it('reads sections stored by another adapter version: defaults for new fields, none for removed ones', async () => {
    const s = await createServer(h);
    await withDatabase(h, async (knex) => {
      const row = await knex('config_sections').where({ server_id: s.id, section: 'launch' }).first();
      const data = JSON.parse(row.data);
      delete data.limit_fps; // "added" by a later version
      data.retired_option = true; // "removed" by a later version
      data.world = 'Altis';
      await knex('config_sections')
        .where({ id: row.id })
        .update({ data: JSON.stringify(data) });
    });
    const launch = (await h.api('GET', `/servers/${s.id}/config/launch`, { token: h.viewerToken })).body.data;
    assert.equal(launch.limit_fps, 50);
    assert.equal(launch.world, 'Altis');
    assert.ok(!('retired_option' in launch));
    const preview = await h.api('GET', `/servers/${s.id}/config/preview`, { token: h.adminToken });
    assert.equal(preview.status, 200);
    const put = await h.api('PUT', `/servers/${s.id}/config/launch`, { token: h.adminToken, body: { auto_init: true, config_version: 1 } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.data.limit_fps, 50);
  });
});
