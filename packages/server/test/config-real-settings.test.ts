import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCfg } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { gameService, FAST_SUPERVISION, createGameServer, killGames, statusBecomes } from './games.js';

describe('the settings real server.cfg files use', () => {
  const suite = gameService(FAST_SUPERVISION);
  const api = (method: string, path: string, body?: unknown) => suite.h.api(method, path, { token: suite.h.adminToken, body });
  const put = async (id: number, section: string, changes: Record<string, unknown>) => {
    const { config_version } = (await api('GET', `/servers/${id}/config/${section}`)).body.data._meta;
    return api('PUT', `/servers/${id}/config/${section}`, { ...changes, config_version });
  };

  it('sets them through typed fields and extra lines, shows them in the preview, and the game starts with them', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const hints = (await api('GET', `/servers/${s.id}/config/schema`)).body.data;
    assert.equal(hints.server.allowed_load_file_extensions.widget, 'tag-list');
    assert.equal(hints.server.extra_lines.widget, 'textarea');
    assert.equal(hints.basic.extra_lines.widget, 'textarea');
    assert.equal(hints.profile.extra_lines.widget, 'textarea');

    const extra = ['allowedVoteCmds[] = {};', 'class CustomSettings', '{', '    enabled = 1;', '};'];
    const server = await put(s.id, 'server', {
      allowed_load_file_extensions: ['hpp', 'sqf'],
      mission_whitelist: ['co10_Escape.Altis'],
      kick_timeout_battleye: -2,
      extra_lines: extra,
    });
    assert.equal(server.status, 200, JSON.stringify(server.body));
    assert.deepEqual(server.body.data.extra_lines, extra);
    assert.equal(
      (await put(s.id, 'basic', { min_error_to_send: 0.000099999997, extra_lines: ['MaxCustomFileSizeGuard = 5;'] })).status,
      200,
    );

    const preview = (await api('GET', `/servers/${s.id}/config/preview`)).body.data;
    assert.ok(preview['server.cfg'].endsWith(`${extra.join('\n')}\n`), 'the extra lines close server.cfg');
    const cfg = parseCfg(preview['server.cfg']);
    assert.deepEqual(cfg.allowedLoadFileExtensions, ['hpp', 'sqf']);
    assert.deepEqual(cfg.missionWhitelist, ['co10_Escape.Altis']);
    assert.deepEqual(cfg.allowedVoteCmds, []);
    assert.match(preview['basic.cfg'], /^MinErrorToSend = 0\.000099999997;$/m);

    assert.equal((await api('POST', `/servers/${s.id}/start`)).status, 200);
    try {
      await statusBecomes(suite.h, s.id, 'running');
      const written = await readFile(join(suite.h.dataDir, 'servers', String(s.id), 'server.cfg'), 'utf8');
      assert.equal(written, preview['server.cfg']);
    } finally {
      await api('POST', `/servers/${s.id}/kill`);
      await killGames(suite.h);
    }
  });

  it('refuses extra lines that would not parse, or set what a field sets, with 422 and the line', async () => {
    const s = await createGameServer(suite.h, suite.fake);
    const refused = async (section: string, lines: string[], message: RegExp) => {
      const error = expectError(await put(s.id, section, { extra_lines: lines }), 422, 'INVALID_CONFIG');
      assert.match(error.message, message);
    };
    await refused(
      'server',
      ['allowedVoteCmds[] = {};', 'enablePlayerDiag = 1'],
      /^extra_lines line 2: the setting of enablePlayerDiag does not end with ';'$/,
    );
    await refused(
      'server',
      ['maxplayers = 64;'],
      /^extra_lines line 1: maxplayers is written by Garrison: use the field 'max_players' instead$/,
    );
    await refused('server', ['x = "unclosed;'], /^extra_lines line 1: a string is not closed/);
    await refused('basic', ['class sockets', '{', '  maxPacketSize = 1300;', '};'], /use the field 'max_packet_size'/);
    await refused('profile', ['class A {', '  b = 1;'], /^extra_lines line 1: class A is not closed/);
    const after = (await api('GET', `/servers/${s.id}/config/server`)).body.data;
    assert.deepEqual(after.extra_lines, [], 'nothing saved');
  });
});
