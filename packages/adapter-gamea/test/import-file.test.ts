import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sectionDefaults } from '@garrison/core';
import { parseCfg } from '@garrison/testkit';
import { renderServerCfg, renderBasicCfg, sections } from '../src/index.js';
import { readCfg } from '../src/import/cfg-reader.js';
import { importFile } from '../src/import/map-file.js';

// A real-looking server.cfg, written by hand: any key case, true/false, a missing semicolon, a key
// Garrison has no field for, an unknown class, an out-of-bounds value, the mission rotation.
const SERVER_CFG = [
  'hostName = "Sunday Ops | EU";',
  'PASSWORD = "letmein";',
  'passwordAdmin = "adm1n";',
  'maxPlayers = 64',
  'motd[] = { "Welcome", "Be nice", };',
  'motdInterval = -5;',
  'admins[] = { 76561198000000001 };',
  'kickDuplicate = true;',
  'verifySignatures = 2;',
  'BattlEye = 1;',
  'persistent = 1;',
  'forcedDifficulty = "veteran";',
  'disableVoN = false;',
  'maxPing = 180;',
  'kickTimeout[] = { {0, -1}, {1, 300}, {2, 180}, {3, 60} };',
  'disableChannels[] = { {0, true, false}, {2, true, true} };',
  'allowedVoteCmds[] = { {"kick", false, false} };',
  'class AdvancedOptions { LogObjectNotFound = false; queueSizeLogG = 2000000; };',
  'class Missions {',
  '  class Escape { template = "co10_Escape.Altis"; difficulty = "veteran"; };',
  '  class Arena { template = tdm_Arena.Stratis.pbo; };',
  '  class Broken { difficulty = "regular"; };',
  '};',
  'class CustomThing { a = 1; };',
].join('\r\n');

describe('importing a hand-written server.cfg into the server section', () => {
  const doc = readCfg(SERVER_CFG, 'server.cfg');
  const imported = importFile('server.cfg', doc, sections.server);

  it('maps every key Garrison has a field for, whatever its case and form', () => {
    assert.deepEqual(doc.problems, []);
    const v = imported.values;
    assert.equal(v.hostname, 'Sunday Ops | EU');
    assert.equal(v.password, 'letmein');
    assert.equal(v.password_admin, 'adm1n');
    assert.equal(v.max_players, 64);
    assert.deepEqual(v.motd_lines, ['Welcome', 'Be nice']);
    assert.deepEqual(v.admin_uids, ['76561198000000001']);
    assert.equal(v.kick_duplicate, 1, "true as the toggle's 1");
    assert.equal(v.verify_signatures, 2);
    assert.equal(v.forced_difficulty, 2, 'Veteran');
    assert.equal(v.disable_von, 0);
    assert.deepEqual([v.kick_timeout_manual, v.kick_timeout_console, v.kick_timeout_battleye, v.kick_timeout_harmless], [-1, 300, 180, 60]);
    assert.deepEqual([v.disable_text_channels, v.disable_voice_channels], [['0', '2'], ['2']]);
    assert.equal(v.advanced_log_object_not_found, false);
    assert.equal(v.advanced_queue_size_log_g, 2000000);
  });

  it('keeps the rotation in order, refuses what a field cannot take, and keeps unknown keys as extra lines', () => {
    assert.deepEqual(imported.rotation, [
      { name: 'co10_Escape.Altis', difficulty: 'Veteran' },
      { name: 'tdm_Arena.Stratis', difficulty: '' },
    ]);
    assert.deepEqual(
      imported.refused.map((r) => [r.line, r.key]),
      [
        [6, 'motdInterval'],
        [22, 'Missions.Broken'],
      ],
    );
    assert.ok(!('motd_interval' in imported.values), 'left at its default');
    assert.match(imported.refused[0].reason, /-5 does not fit motd_interval/);
    assert.deepEqual(
      imported.unknown.map((u) => [u.line, u.key]),
      [
        [17, 'allowedVoteCmds'],
        [24, 'class CustomThing'],
      ],
    );
    assert.deepEqual(
      imported.extraLines.filter((l) => l.trim()),
      ['allowedVoteCmds[] = {{"kick", false, false}};', 'class CustomThing', '{', '    a = 1;', '};'],
    );
  });

  it('renders back, with the defaults for the rest, to a file that says the same', () => {
    const section = {
      ...sectionDefaults(sections.server),
      ...imported.values,
      missions: imported.rotation,
      extra_lines: imported.extraLines,
    };
    const rendered = renderServerCfg(section);
    assert.doesNotThrow(() => parseCfg(rendered), 'the game can read it');
    // Compared as values, read the same tolerant way, not as text.
    const valuesOf = (text: string) =>
      new Map(readCfg(text, 'x').entries.flatMap((e) => (e.kind === 'value' ? [[e.key.toLowerCase(), e.value] as const] : [])));
    const before = valuesOf(SERVER_CFG);
    const after = valuesOf(rendered);
    for (const key of [
      'hostname',
      'password',
      'passwordadmin',
      'maxplayers',
      'motd',
      'admins',
      'verifysignatures',
      'persistent',
      'maxping',
      'kicktimeout',
      'allowedvotecmds',
    ]) {
      assert.deepEqual(after.get(key), before.get(key), key);
    }
    assert.equal(after.get('kickduplicate'), 1, 'true written as the 1 the game reads the same');
    assert.equal(after.get('forceddifficulty'), 'Veteran');
  });

  it('reads basic.cfg too', () => {
    const basic = importFile(
      'basic.cfg',
      readCfg('MaxMsgSend = 256;\nMinBandwidth = 131072\nterrainGrid = 25;\n', 'basic.cfg'),
      sections.basic,
    );
    assert.deepEqual(basic.values, { max_msg_send: 256, min_bandwidth: 131072 });
    assert.deepEqual(
      basic.unknown.map((u) => u.key),
      ['terrainGrid'],
    );
    assert.ok(
      renderBasicCfg({ ...sectionDefaults(sections.basic), ...basic.values, extra_lines: basic.extraLines }).includes('terrainGrid = 25;'),
    );
  });
});
