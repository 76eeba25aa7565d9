import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readCfg, type CfgAssignment, type CfgClassNode, type CfgNode } from '../src/import/cfg-reader.js';
import { readBattlEyeCfg } from '../src/import/battleye-cfg.js';

const values = (entries: CfgNode[]) =>
  Object.fromEntries(entries.filter((e): e is CfgAssignment => e.kind === 'value').map((e) => [e.key, e.value]));
const classNamed = (entries: CfgNode[], name: string) => entries.find((e): e is CfgClassNode => e.kind === 'class' && e.name === name)!;

// A server.cfg as people write them by hand: CRLF, comments of both kinds, any key case, a missing
// semicolon, unquoted strings, true/false, a multi-line array with a trailing comma, a nested class.
const HAND_WRITTEN = [
  '// Sunday Ops server config',
  'hostName = "Sunday Ops | EU ""Public""";',
  'password = ;',
  'passwordAdmin = "s3cret"   // admins only',
  'maxPlayers = 64',
  'persistent = true;',
  'verifySignatures = 2;',
  'motd[] = {',
  '  "Welcome!",',
  '  "Be nice",   /* the second line */',
  '};',
  'admins[] = {"76561198000000001", 76561198000000002,};',
  'timeStampFormat = short;',
  'class Missions',
  '{',
  '  class M1 { template = co10_Escape.Altis; difficulty = "Veteran"; };',
  '  class M2',
  '  {',
  '    template = "tdm_Arena.Stratis";',
  '    difficulty = regular',
  '    class Params { skill = 0.5; };',
  '  };',
  '};',
  'kickTimeout[] = { {0, -1}, {1, 180} };',
].join('\r\n');

describe('reading hand-written config files tolerantly', () => {
  it('reads every form people write, with the line of each setting', () => {
    const doc = readCfg(HAND_WRITTEN, 'server.cfg');
    assert.deepEqual(doc.problems, [{ file: 'server.cfg', line: 3, column: 12, message: 'a value is missing', kind: 'syntax' }]);
    const top = values(doc.entries);
    assert.equal(top.hostName, 'Sunday Ops | EU "Public"');
    assert.equal(top.passwordAdmin, 's3cret');
    assert.equal(top.maxPlayers, 64);
    assert.equal(top.persistent, true);
    assert.deepEqual(top.motd, ['Welcome!', 'Be nice']);
    assert.deepEqual(top.admins, ['76561198000000001', '76561198000000002'], 'a Steam ID too long for a number stays exact');
    assert.equal(top.timeStampFormat, 'short');
    assert.deepEqual(top.kickTimeout, [
      [0, -1],
      [1, 180],
    ]);
    const line = (key: string) => (doc.entries.find((e) => e.kind === 'value' && e.key === key) as CfgAssignment).line;
    assert.deepEqual([line('hostName'), line('maxPlayers'), line('motd'), line('kickTimeout')], [2, 5, 8, 24]);

    const missions = classNamed(doc.entries, 'Missions');
    assert.equal(missions.line, 14);
    assert.deepEqual(values(classNamed(missions.entries, 'M1').entries), { template: 'co10_Escape.Altis', difficulty: 'Veteran' });
    const m2 = classNamed(missions.entries, 'M2');
    assert.deepEqual(values(m2.entries), { template: 'tdm_Arena.Stratis', difficulty: 'regular' });
    assert.deepEqual(values(classNamed(m2.entries, 'Params').entries), { skill: 0.5 });
  });

  it('follows #include through the reader it is given, and reports what it refuses', () => {
    const files: Record<string, string> = { 'missions.hpp': 'class Missions { class A { template = a.Altis; }; };\n' };
    const doc = readCfg('#include "missions.hpp"\n#include "../../etc/passwd"\n#define X 1\nmaxPlayers = 10;\n', 'server.cfg', (name) =>
      name in files ? { file: name, text: files[name] } : { refused: 'outside the game folder' },
    );
    assert.deepEqual(doc.included, ['missions.hpp']);
    assert.ok(classNamed(doc.entries, 'Missions'));
    assert.equal(values(doc.entries).maxPlayers, 10);
    assert.deepEqual(
      doc.problems.map((p) => [p.line, p.message]),
      [
        [2, '#include ../../etc/passwd: outside the game folder'],
        [3, 'a directive other than #include is not read'],
      ],
    );
    // An include that includes itself ends, with a problem, instead of looping.
    const looping = readCfg('#include "self.hpp"\n', 'server.cfg', () => ({ file: 'self.hpp', text: '#include "self.hpp"\n' }));
    assert.match(looping.problems.at(-1)!.message, /nested too deep/);
  });

  it('never gives up on a file: a bad line costs that line, and the rest is read', () => {
    const doc = readCfg(
      'maxPlayers = 40;\n= 3;\n"odd";\nclass { x = 1; };\nhostname = "unterminated\nmotd[] = {"a", "b"\nlast = 1;\n',
      'server.cfg',
    );
    assert.equal(values(doc.entries).maxPlayers, 40);
    assert.ok(doc.problems.length >= 3, JSON.stringify(doc.problems));
    assert.ok(
      doc.problems.every((p) => p.line >= 2),
      'the first line was fine',
    );
    // Nothing thrown, and what came before the damage is kept.
    assert.equal(values(doc.entries).hostname, 'unterminated');
  });

  it('reads a class declaration, a derived class, an empty file and a BOM', () => {
    assert.deepEqual(readCfg('', 'empty.cfg'), { entries: [], problems: [], included: [] });
    assert.equal(values(readCfg('\uFEFFmaxPlayers = 8;', 'bom.cfg').entries).maxPlayers, 8);
    const declared = readCfg('class CfgPatches;\nclass Derived: Base { a = 1; };', 'x.cfg');
    assert.deepEqual(
      declared.entries.map((e) => e.kind === 'class' && [e.name, e.base, e.declaration]),
      [
        ['CfgPatches', null, true],
        ['Derived', 'Base', false],
      ],
    );
  });
});

describe("reading BattlEye's own config", () => {
  it('reads its "Key value" lines in any case, the last one winning, and reports the others', () => {
    const { settings, problems } = readBattlEyeCfg(
      '\uFEFFRConPassword Abc123\r\n// a comment\r\nrconport 2306\r\nMaxPing 200 // ms\r\nRConIP\r\nRConPort 2307\r\n',
    );
    assert.equal(settings.get('rconpassword')?.value, 'Abc123');
    assert.deepEqual(settings.get('rconport'), { key: 'RConPort', value: '2307', line: 6 });
    assert.equal(settings.get('maxping')?.value, '200');
    assert.deepEqual(problems, [{ line: 5, message: 'not a "Key value" line' }], 'said by its number, never by what it holds');
  });
});
