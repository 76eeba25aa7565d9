import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ApiError } from '@garrison/core';
import { ImportFiles } from '@garrison/server/import-files';
import gamea from '../src/index.js';

const importer = gamea.capabilities.config_generator.importer;
const folders: string[] = [];
after(() => Promise.all(folders.map((f) => rm(f, { recursive: true, force: true }))));

/** A game folder holding `files` (path → text). */
async function installation(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'garrison-import-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  await writeFile(join(root, 'gameaserver_x64.exe'), '');
  return root;
}
const read = (root: string, source: Record<string, string> = {}) =>
  importer.read({ exe_path: join(root, 'gameaserver_x64.exe'), ...source }, new ImportFiles(root));

// server.cfg as different communities keep it; each read into the same fields.
const STYLES: Record<string, string> = {
  'a Linux host, terse, LF, inline classes': [
    'hostname="Terse EU";password="";passwordAdmin="x1";maxPlayers=32;',
    'class Missions{class A{template=co10_Escape.Altis;difficulty="regular";};};',
    '',
  ].join('\n'),
  'a Windows host, CRLF, tabs, comment blocks, booleans, no semicolons at line ends': [
    '/*',
    ' * Config of the Tuesday server',
    ' */',
    '\thostName\t=\t"Terse EU"',
    '\tMAXPLAYERS = 32 // raised in 2023',
    '\tpasswordAdmin = x1',
    '\tkickDuplicate = true',
    '\tclass Missions',
    '\t{',
    '\t\tclass Escape',
    '\t\t{',
    '\t\t\ttemplate = "co10_Escape.Altis.pbo"',
    '\t\t\tdifficulty = Regular',
    '\t\t}',
    '\t}',
  ].join('\r\n'),
  'a panel export: one key a line, a multi-line array with a trailing comma, a BOM': [
    '\uFEFFhostname = "Terse EU";',
    'maxPlayers = 32;',
    'passwordAdmin = "x1";',
    'motd[] =',
    '{',
    '    "line one",',
    '    "line two",',
    '};',
    'class Missions { class M_1 { template = "co10_Escape.Altis"; difficulty = "REGULAR"; }; };',
  ].join('\n'),
};

describe('reading a whole installation', () => {
  for (const [style, text] of Object.entries(STYLES)) {
    it(`reads server.cfg written by ${style}`, async () => {
      const draft = await read(await installation({ 'server.cfg': text }));
      assert.equal(draft.name, 'Terse EU');
      assert.equal(draft.sections.server.max_players, 32);
      assert.equal(draft.sections.server.password_admin, 'x1');
      assert.deepEqual(draft.rotation, [{ name: 'co10_Escape.Altis', difficulty: 'Regular' }]);
      assert.deepEqual(draft.refused, []);
      assert.equal(draft.game_port, 2302, "the game's default without -port=");
      assert.ok(draft.warnings.some((w) => /no BattlEye config/.test(w)));
    });
  }

  it('finds the files where the start command puts them, and its launch options', async () => {
    const root = await installation({
      'cfg/main.cfg': 'hostname = "From cfg/";',
      'cfg/net.cfg': 'MaxMsgSend = 128;',
      'prof/Users/ops/ops.GameaProfile': 'class DifficultyPresets { class CustomAILevel { skillAI = 0.9; }; };',
      'be/BEServer_x64_active_6a3f.cfg': 'RConPassword Active1\nRConPort 2410\n',
      'be/BEServer_x64.cfg': 'RConPassword Stale\n',
      'be/Bans.txt': '0123456789abcdef0123456789abcdef -1 cheating\n// a comment\n',
      'mpmissions/a.Altis.pbo': 'x',
      'mpmissions/readme.txt': 'x',
      '@cba/meta.cpp': 'publishedid = 450814997;',
    });
    const draft = await read(root, {
      command_line:
        './gameaserver_x64.exe -port=2400 -config=cfg/main.cfg -cfg=cfg\\net.cfg -profiles=prof -name=ops -bepath=be ' +
        '"-mod=@cba;@gone" -limitFPS=90 -enableHT -cpuCount=4',
    });
    assert.equal(draft.name, 'From cfg/');
    assert.equal(draft.sections.basic.max_msg_send, 128);
    assert.equal(draft.sections.profile.skill_ai, 0.9);
    assert.equal(draft.sections.rcon.rcon_password, 'Active1', 'the file BattlEye runs from, not the one it renamed');
    assert.deepEqual([draft.game_port, draft.rcon_port], [2400, 2410]);
    assert.deepEqual(draft.bans, { files: [{ file: join(root, 'be', 'Bans.txt'), kind: 'GUID' }], count: 1 });
    assert.deepEqual(draft.missions, ['a.Altis.pbo']);
    assert.deepEqual(draft.mods, [
      { name: '@cba', is_server_mod: false, installed: true },
      { name: '@gone', is_server_mod: false, installed: false },
    ]);
    assert.ok(draft.warnings.some((w) => w.includes('@gone')));
    assert.deepEqual([draft.sections.launch.limit_fps, draft.sections.launch.enable_ht, draft.sections.launch.cpu_count], [90, true, 4]);
  });

  it('fails a file that is not the game syntax with its line and column, and refuses paths out of the folder', async () => {
    const root = await installation({ 'server.cfg': 'hostname = "ok";\nmaxPlayers = 10;\n  = 5;\n' });
    await assert.rejects(read(root), (err: ApiError) => {
      assert.equal(err.code, 'INVALID_CONFIG');
      assert.deepEqual([err.extra.line, err.extra.column], [3, 3]);
      return true;
    });
    const outside = await installation({});
    await symlink('/etc', join(outside, 'etc-link'));
    for (const path of ['../../etc/hostname', '/etc/hostname', 'etc-link/hostname', 'C:\\Arma\\server.cfg']) {
      await assert.rejects(
        read(outside, { config_path: path }),
        (err: ApiError) => err.code === 'VALIDATION_ERROR' && /config_path/.test(err.message),
        path,
      );
    }
    await assert.rejects(read(outside, { config_path: 'missing.cfg' }), /does not exist/);
  });
});
