import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { importFile, readCfg, sections } from '@garrison/adapter-gamea';
import { freeGamePorts } from '@garrison/testkit';
import { expectError } from './helpers.js';
import { gameService, FAST_SUPERVISION, statusBecomes, createGameServer } from './games.js';

const FIXTURE = new URL('./fixtures/installation/', import.meta.url).pathname;

/**
 * A server folder as communities have them (fixtures/installation): server.cfg with the odd syntax
 * people write (CRLF here, an #include for the rotation), basic.cfg, a profile under -profiles/-name,
 * BattlEye's config and bans.txt, missions, @mod folders, and a .bat start script.
 */
describe('importing an existing server', () => {
  const ports = { game: 0, rcon: 0 };
  const suite = gameService(FAST_SUPERVISION, async (fake) => {
    await cp(FIXTURE, fake.dir, { recursive: true });
    const cfg = join(fake.dir, 'server.cfg');
    await writeFile(cfg, (await readFile(cfg, 'utf8')).replace(/\r?\n/g, '\r\n'));
    const free = await freeGamePorts();
    Object.assign(ports, { game: free.game_port, rcon: free.rcon_port });
    const be = join(fake.dir, 'BattlEye', 'beserver_x64.cfg');
    await writeFile(be, (await readFile(be, 'utf8')).replace('RConPort 2402', `RConPort ${ports.rcon}`));
  });
  const commandLine = async () => (await readFile(join(FIXTURE, 'start_server.bat'), 'utf8')).replace('-port=2400', `-port=${ports.game}`);
  const importing = async (body: Record<string, unknown>, token = suite.h.adminToken) =>
    suite.h.api('POST', '/servers/import', { token, body: { exe_path: suite.fake.exePath, command_line: await commandLine(), ...body } });
  const serverCount = async () => (await suite.h.api('GET', '/servers', { token: suite.h.adminToken })).body.data.length;
  const folders = async () => (await readdir(join(suite.h.dataDir, 'servers')).catch(() => [])).length;

  it('answers the plan on a dry run, and writes nothing', async () => {
    const [count, dirs] = [await serverCount(), await folders()];
    const res = await importing({ dry_run: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const plan = res.body.data;
    assert.equal(plan.dry_run, true);
    assert.deepEqual(plan.server, {
      name: 'Sunday Ops | EU #1 | ACE | TFAR',
      game_type: 'gamea',
      exe_path: suite.fake.exePath,
      game_port: ports.game,
      rcon_port: ports.rcon,
    });
    assert.equal(plan.sections.server.hostname, 'Sunday Ops | EU #1 | ACE | TFAR');
    assert.equal(plan.sections.server.max_players, 64);
    assert.deepEqual(plan.sections.server.motd_lines, ['Welcome to Sunday Ops!', 'Teamspeak: ts.example.org']);
    assert.deepEqual(plan.sections.server.admin_uids, ['76561198000000001', '76561198000000002']);
    for (const secret of [plan.sections.server.password, plan.sections.server.password_admin, plan.sections.rcon.rcon_password])
      assert.equal(secret, '***', 'secrets masked');
    assert.equal(plan.sections.basic.max_msg_send, 256);
    assert.equal(plan.sections.profile.skill_ai, 0.6);
    assert.equal(plan.sections.launch.limit_fps, 120);
    assert.equal(plan.sections.launch.auto_init, true);
    assert.equal(plan.sections.launch.max_mem, 8192);
    assert.deepEqual(plan.rotation, [
      { name: 'co40_Liberation.Altis', difficulty: 'Custom' },
      { name: 'tvt20_Arena.Stratis', difficulty: 'Veteran' },
    ]);
    assert.deepEqual(plan.mods, [
      { name: '@CBA_A3', is_server_mod: false, installed: true },
      { name: '@ace', is_server_mod: false, installed: true },
      { name: '@task_force_radio', is_server_mod: false, installed: true },
      { name: '@AdvancedUrbanRappelling', is_server_mod: true, installed: true },
    ]);
    assert.equal(plan.bans.count, 4);
    assert.deepEqual(plan.missions, ['co40_Liberation.Altis.pbo', 'old_training.VR.pbo', 'tvt20_Arena.Stratis.pbo']);
    assert.equal(plan.sections.basic.max_packet_size, 1400, 'class sockets read into its field');
    assert.deepEqual(
      plan.unknown
        .filter((u: { key: string }) => /^(3D_Performance|allowedVoteCmds|blood)$/.test(u.key))
        .map((u: { line: number }) => u.line),
      [25, 12, 2],
      'kept as extra lines, each with its line',
    );
    assert.ok(
      plan.refused.some((r: { key: string }) => r.key === '-nosound'),
      JSON.stringify(plan.refused),
    );
    assert.ok(
      plan.files.every((f: { found: boolean }) => f.found),
      JSON.stringify(plan.files),
    );
    assert.equal(await serverCount(), count, 'no server made');
    assert.equal(await folders(), dirs, 'no folder made');
  });

  it('makes a server that starts with the fake game and renders the same settings as the original files', async () => {
    const res = await importing({});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { server } = res.body.data;
    assert.equal(res.body.data.dry_run, false);
    assert.equal(server.rcon_password, 'Sund4yRcon', 'the credentials read, shown this once');
    assert.equal(server.password_admin, 'adm1nPass');
    const section = (await suite.h.api('GET', `/servers/${server.id}/config/server`, { token: suite.h.adminToken })).body.data;
    assert.equal(JSON.stringify(section).includes('adm1nPass'), false, 'masked everywhere else');

    const preview = (await suite.h.api('GET', `/servers/${server.id}/config/preview`, { token: suite.h.adminToken })).body.data;
    const included = (name: string) => ({ file: name, text: readFileSync(join(suite.fake.dir, name), 'utf8') });
    for (const [file, schema] of [
      ['server.cfg', sections.server],
      ['basic.cfg', sections.basic],
    ] as const) {
      const before = importFile(file, readCfg(await readFile(join(suite.fake.dir, file), 'utf8'), file, included), schema);
      const after = importFile(file, readCfg(preview[file], file), schema);
      for (const [field, value] of Object.entries(before.values)) assert.deepEqual(after.values[field], value, `${file}: ${field}`);
      assert.ok(Object.keys(before.values).length > 5, `${file}: values were read`);
      assert.deepEqual(
        after.unknown.map((u) => u.key),
        before.unknown.map((u) => u.key),
        `${file}: the same extra settings`,
      );
      assert.deepEqual(after.rotation, before.rotation);
    }

    const bans = (await suite.h.api('GET', `/servers/${server.id}/bans`, { token: suite.h.adminToken })).body.data;
    assert.equal(bans.length, 4);
    assert.ok(
      bans.every((b: { source?: string }) => b.source === 'file'),
      JSON.stringify(bans),
    );

    const start = await suite.h.api('POST', `/servers/${server.id}/start`, { token: suite.h.adminToken });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    await statusBecomes(suite.h, server.id, 'running'); // ready once RCon takes the imported password
    assert.equal(
      (await suite.h.api('POST', `/servers/${server.id}/stop`, { token: suite.h.adminToken, body: { force: true } })).status,
      200,
    );
    assert.equal(
      (await suite.h.api('DELETE', `/servers/${server.id}`, { token: suite.h.adminToken })).status,
      204,
      'its ports free for the next test',
    );
  });

  it('refuses bad input with a clear 4xx, and makes nothing', async () => {
    const count = await serverCount();
    expectError(await importing({ exe_path: join(suite.fake.dir, 'notepad.exe'), dry_run: true }), 400, 'EXE_NOT_ALLOWED');
    expectError(await importing({ config_path: '../../../etc/passwd', dry_run: true }), 400, 'VALIDATION_ERROR');
    expectError(await importing({ config_path: 'nowhere.cfg', dry_run: true }), 400, 'VALIDATION_ERROR');
    await writeFile(join(suite.fake.dir, 'huge.cfg'), `hostname = "${'x'.repeat(1024 * 1024)}";`);
    assert.match(expectError(await importing({ config_path: 'huge.cfg' }), 400, 'VALIDATION_ERROR').message, /1 MiB/);
    await writeFile(
      join(suite.fake.dir, 'broken.cfg'),
      'hostname = "ok";\nmaxPlayers = 10;\nclass Missions {\n  class A { template = x.Altis;\n',
    );
    const broken = expectError(await importing({ config_path: 'broken.cfg' }), 400, 'INVALID_CONFIG');
    assert.equal(broken.file, join(suite.fake.dir, 'broken.cfg'));
    assert.equal(typeof broken.line, 'number');
    assert.equal(typeof broken.column, 'number');
    await writeFile(join(suite.fake.dir, 'escape.cfg'), 'hostname = "x";\n#include "../../../etc/hostname"\n');
    const escapeRes = await importing({ config_path: 'escape.cfg', dry_run: true });
    assert.equal(escapeRes.status, 200, JSON.stringify(escapeRes.body));
    const escape = escapeRes.body.data;
    assert.deepEqual(
      escape.refused.filter((r: { key: string }) => r.key === '#include').map((r: { line: number }) => r.line),
      [2],
      'an #include outside the game folder is refused and said',
    );
    // In another folder: the import's own folder, run by a server, would be refused before its ports are looked at.
    const taken = await createGameServer(suite.h, suite.fake, {
      name: 'Squatter',
      exe_path: '/opt/gamea/gameaserver_x64.exe',
      game_port: ports.game + 100,
      rcon_port: ports.rcon,
    });
    expectError(await importing({}), 409, 'PORT_IN_USE');
    await suite.h.api('DELETE', `/servers/${taken.id}`, { token: suite.h.adminToken });
    expectError(await importing({ dry_run: true }, suite.h.viewerToken), 403, 'FORBIDDEN');
    expectError(
      await suite.h.api('POST', '/servers/import', { token: suite.h.adminToken, body: { exe_path: suite.fake.exePath, port: 1 } }),
      400,
      'VALIDATION_ERROR',
    );
    assert.equal(await serverCount(), count);
  });
});
