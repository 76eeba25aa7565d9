import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile, access, constants } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { sectionDefaults, type ConfigValues, type ServerContext } from '@garrison/core';
import gamea, { parseLogLine, parsePlayers } from '@garrison/adapter-gamea';
import { BattlEyeClient } from '@garrison/battleye';
import { connectRcon, freeGamePorts, startProcess, waitFor, withDeadline, type TestProcess } from '@garrison/testkit';

const run = promisify(execFile);
/** Config files and launch arguments exactly as the adapter makes them, for a fresh server folder. */
async function prepare(installDir: string, changes: (c: ConfigValues) => void = () => {}) {
  const serverDir = await mkdtemp(join(tmpdir(), 'garrison-fake-server-'));
  const ctx: ServerContext = {
    server: { id: 1, name: 'fake', exe_path: join(installDir, 'gameaserver_x64.exe'), ...(await freeGamePorts()) },
    serverDir,
    exeDir: installDir,
  };
  const { config_generator, process_config } = gamea.capabilities;
  const config: ConfigValues = Object.fromEntries(Object.entries(config_generator.sections).map(([n, s]) => [n, sectionDefaults(s)]));
  config.rcon.rcon_password = 'FakePass1';
  changes(config);
  for (const file of config_generator.render(config, ctx)) {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  return { ctx, serverDir, args: process_config.launchArguments(config, ctx) };
}

const start = (exe: string, args: string[], env: Record<string, string> = {}) =>
  startProcess(exe, args, { env: { ...process.env, GAMEA_FAKE_READY_MS: '100', ...env } });

const rcon = (ctx: ServerContext) => connectRcon({ host: '127.0.0.1', port: ctx.server.rcon_port, password: 'FakePass1', timeoutMs: 5000 });

describe('the fake gamea dedicated server, installed by the CLI', () => {
  let installDir: string;
  const cleanup: (() => Promise<unknown>)[] = [];

  before(async () => {
    installDir = await mkdtemp(join(tmpdir(), 'garrison-fake-gamea-'));
    const { stdout } = await run('npx', ['--no-install', 'garrison-testkit', 'install-fake-gamea', installDir]);
    assert.deepEqual(stdout.trim().split('\n'), [join(installDir, 'gameaserver_x64.exe'), join(installDir, 'gameaserver.exe')]);
  });
  after(async () => {
    for (const fn of cleanup.reverse()) await fn().catch(() => {});
    await rm(installDir, { recursive: true, force: true });
  });

  function track(r: TestProcess, serverDir: string) {
    cleanup.push(async () => {
      await r.kill();
      await rm(serverDir, { recursive: true, force: true });
    });
    return r;
  }

  it('installs both executables and the missions folder', async () => {
    for (const exe of ['gameaserver_x64.exe', 'gameaserver.exe']) await access(join(installDir, exe), constants.X_OK);
    assert.deepEqual(await readdir(join(installDir, 'mpmissions')), []);
  });

  it("starts from the adapter's files and arguments, binds its ports, logs, and answers RCon", async () => {
    await writeFile(join(installDir, 'mpmissions', 'co10_Escape.Altis.pbo'), 'pbo');
    const { ctx, serverDir, args } = await prepare(installDir, (c) => {
      c.server.hostname = 'Fake "One"; with quotes';
    });
    const game = track(start(ctx.server.exe_path, args, { GAMEA_FAKE_PLAYERS: '2' }), serverDir);
    const client = await rcon(ctx);
    cleanup.push(() => client.close());

    // The game port is taken.
    const probe = createSocket('udp4');
    probe.bind(ctx.server.game_port, '127.0.0.1');
    const [err] = (await once(probe, 'error')) as [NodeJS.ErrnoException];
    assert.equal(err.code, 'EADDRINUSE');
    probe.close();

    assert.equal(parsePlayers(await client.command('players')).length, 2);
    const got: string[] = [];
    client.onMessage((m) => got.push(m));
    await client.command(`testkit.join Late Comer ${'d'.repeat(32)} 10.0.0.9`);
    const players = parsePlayers(await client.command('players'));
    assert.deepEqual(
      players.map((p) => p.name),
      ['Player1', 'Player2', 'Late Comer'],
    );
    await client.command('testkit.leave 0');
    assert.equal(parsePlayers(await client.command('players')).length, 2);
    assert.match(await client.command('missions'), /^Missions on server:\nco10_Escape\.Altis\.pbo$/);
    assert.equal(await client.command('#mission co10_Escape.Altis Veteran'), '');
    assert.match(await client.command('#mission nope.Altis'), /not found/);
    assert.equal(await client.command('say -1 Hello all'), '');
    await client.command('testkit.log warning disk nearly full');
    await client.command('testkit.log error script failed');
    await waitFor(() => got.includes(`Player #2 Late Comer (10.0.0.9:2304) connected`), { what: 'the join message' });
    await waitFor(() => got.some((m) => /RCon admin #\d+: \(Global\) Hello all/.test(m)), { what: 'the say message' });

    const expected = [
      'Dedicated host created.',
      'Starting mission: co10_Escape.Altis (Veteran)',
      'Warning: disk nearly full',
      'Error: script failed',
    ];
    const rpt = await waitFor(
      async () => {
        const logs = (await readdir(join(installDir, 'server'))).filter((f) => f.endsWith('.rpt'));
        assert.equal(logs.length, 1);
        assert.match(logs[0], /^gameaserver_x64_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.rpt$/);
        const lines = (await readFile(join(installDir, 'server', logs[0]), 'utf8')).trim().split('\n');
        for (const line of expected) {
          assert.ok(
            lines.some((l) => l.endsWith(line)),
            `${line} in the .rpt`,
          );
          assert.ok(
            game.stdout.some((l) => l.endsWith(line)),
            `${line} on stdout`,
          );
        }
        return lines;
      },
      { what: 'the log lines in the .rpt and on stdout' },
    );
    assert.deepEqual(parseLogLine(rpt.find((l) => l.endsWith('disk nearly full'))!), {
      level: 'warning',
      message: 'Warning: disk nearly full',
    });
    assert.deepEqual(parseLogLine(rpt.find((l) => l.endsWith('script failed'))!), { level: 'error', message: 'Error: script failed' });

    await client.command('#shutdown');
    assert.equal(await withDeadline(game.exited, 10_000, 'exit after #shutdown'), 0);
  });

  it('loads bans.txt from its BattlEye folder on loadBans', async () => {
    const { ctx, serverDir, args } = await prepare(installDir);
    const game = track(start(ctx.server.exe_path, args), serverDir);
    await writeFile(
      join(serverDir, 'battleye', 'bans.txt'),
      `${'e'.repeat(32)} -1 Cheating\n1.2.3.4 ${Math.floor(Date.now() / 1000) + 3600} Spam\n`,
    );
    const client = await rcon(ctx);
    cleanup.push(() => client.close());
    await client.command('loadBans');
    const bans = await client.command('bans');
    assert.match(bans, new RegExp(`^0  ${'e'.repeat(32)} perm Cheating$`, 'm'));
    assert.match(bans, /^1 {2}1\.2\.3\.4 +60 Spam$/m);
    game.child.kill('SIGTERM');
    assert.equal(await withDeadline(game.exited, 10_000, 'exit on SIGTERM'), 0);
  });

  it('loads bans.txt at launch, and saves its whole list over it when a command changes the list, as BattlEye does', async () => {
    const { ctx, serverDir, args } = await prepare(installDir);
    const file = join(serverDir, 'battleye', 'bans.txt');
    const past = Math.floor(Date.now() / 1000) - 60;
    await writeFile(file, `##Bans##\r\n${'a'.repeat(32)} -1 Cheating\r\n10.0.0.1 ${past} expired\r\nnot a ban line\r\n`);
    track(start(ctx.server.exe_path, args, { GAMEA_FAKE_PLAYERS: '1' }), serverDir);
    const client = await rcon(ctx);
    cleanup.push(() => client.close());
    assert.match(await client.command('bans'), new RegExp(`^0  ${'a'.repeat(32)} perm Cheating$`, 'm'), 'read at launch');

    // addBan and ban: the game's own list, written whole in its format (comments and unreadable lines gone).
    await client.command(`addBan ${'b'.repeat(32)} 0 By RCon`);
    await client.command('ban 0 30 Teamkill');
    const guid0 = /^\d+\s+\S+\s+\d+\s+(\w+)\(OK\)/m.exec(await client.command('players')) ?? null;
    assert.equal(guid0, null, 'the banned player is off');
    let lines = (await readFile(file, 'utf8')).split('\n');
    assert.equal(lines[0], `${'a'.repeat(32)} -1 Cheating`);
    assert.equal(lines[1], `10.0.0.1 ${past} expired`);
    assert.equal(lines[2], `${'b'.repeat(32)} -1 By RCon`);
    assert.match(lines[3], /^[0-9a-f]{32} \d{10} Teamkill$/);
    assert.equal(lines.length, 5);

    // removeBan by its number, and writeBans drops the expired one.
    await client.command('removeBan 0');
    await client.command('writeBans');
    lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => l.split(' ')[0]),
      ['b'.repeat(32), lines[1].split(' ')[0]],
    );
    assert.doesNotMatch(lines.join('\n'), /10\.0\.0\.1|Cheating/);
  });

  it('exits 3 at once on testkit.crash', async () => {
    const { ctx, serverDir, args } = await prepare(installDir);
    const game = track(start(ctx.server.exe_path, args), serverDir);
    const client = await rcon(ctx);
    cleanup.push(() => client.close());
    await client.command('testkit.crash');
    assert.equal(await withDeadline(game.exited, 10_000, 'exit after testkit.crash'), 3);
  });

  it('ignores #shutdown after testkit.hang', async () => {
    const { ctx, serverDir, args } = await prepare(installDir);
    const game = track(start(ctx.server.exe_path, args), serverDir);
    const client = await rcon(ctx);
    cleanup.push(() => client.close());
    await client.command('testkit.hang');
    await client.command('#shutdown');
    // A negative: an honoured #shutdown ends the process within a second, so it must still be there after 1.5 s.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(game.child.exitCode, null, 'still running');
    assert.match(await client.command('players'), /players in total/);
    await game.kill();
  });

  it('does not answer RCon before it is ready', async () => {
    const { ctx, serverDir, args } = await prepare(installDir);
    const game = track(start(ctx.server.exe_path, args, { GAMEA_FAKE_READY_MS: '4000' }), serverDir);
    // Up (its game port bound and logged), and RCon still silent.
    await waitFor(() => game.stdout.some((l) => l.includes('Host identity created')), { timeoutMs: 20_000, what: 'the game to boot' });
    await assert.rejects(
      BattlEyeClient.connect({ host: '127.0.0.1', port: ctx.server.rcon_port, password: 'FakePass1', resendMs: 100, loginTimeoutMs: 400 }),
      /no answer/,
    );
    const client = await rcon(ctx);
    cleanup.push(() => client.close());
    assert.match(await client.command('players'), /0 players in total/);
  });

  describe('refuses to start (exit 1, reason on stderr)', () => {
    const refusal = async (setup: (p: Awaited<ReturnType<typeof prepare>>) => Promise<string[]> | string[], reason: RegExp) => {
      const p = await prepare(installDir);
      const game = track(start(p.ctx.server.exe_path, await setup(p)), p.serverDir);
      assert.equal(await withDeadline(game.exited, 20_000, 'exit on refusal'), 1);
      assert.match(game.stderr.join(''), reason);
    };

    it('when a config file is missing', () =>
      refusal(async (p) => (await rm(join(p.serverDir, 'basic.cfg')), p.args), /basic config .* not found/));
    it('when server.cfg cannot be parsed', () =>
      refusal(async (p) => (await writeFile(join(p.serverDir, 'server.cfg'), 'hostname = "unterminated;\n'), p.args), /cannot be parsed/));
    it('when the profile is missing', () =>
      refusal(async (p) => (await rm(join(installDir, 'server', 'Users'), { recursive: true, force: true }), p.args), /profile not found/));
    it('when the BattlEye config is broken', () =>
      refusal(async (p) => (await writeFile(join(p.serverDir, 'battleye', 'BEServer_x64.cfg'), 'RConPassword x\n'), p.args), /RConPort/));
    it('on an unknown argument', () => refusal((p) => [...p.args, '-bogus=1'], /unknown or malformed argument "-bogus=1"/));
    it('without -port=', () => refusal((p) => p.args.filter((a) => !a.startsWith('-port=')), /missing -port=/));
    it('when its game port is taken', async () => {
      const p = await prepare(installDir);
      const blocker = createSocket('udp4');
      blocker.bind(p.ctx.server.game_port, '127.0.0.1');
      await once(blocker, 'listening');
      try {
        const game = track(start(p.ctx.server.exe_path, p.args), p.serverDir);
        assert.equal(await withDeadline(game.exited, 20_000, 'exit on refusal'), 1);
        assert.match(game.stderr.join(''), /port in use/);
      } finally {
        blocker.close();
      }
    });
  });
});
