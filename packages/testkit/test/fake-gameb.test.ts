import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { access, constants, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  RawSourceConnection,
  bigReplyText,
  freePorts,
  launchFakeGameb,
  startProcess,
  waitFor,
  withDeadline,
  type FakeGameb,
} from '../src/index.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const pad = (n: number) => String(n).padStart(2, '0');
const today = () => `L${pad(new Date().getMonth() + 1)}${pad(new Date().getDate())}`;
const LOG_LINE = /^L \d{2}\/\d{2}\/\d{4} - \d{2}:\d{2}:\d{2}: /;

const running: FakeGameb[] = [];
const dirs: string[] = [];
after(async () => {
  for (const game of running) await game.stop().catch(() => {});
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function launch(options: Parameters<typeof launchFakeGameb>[0] = {}): Promise<FakeGameb> {
  const game = await launchFakeGameb(options);
  running.push(game);
  return game;
}

/** `garrison-testkit install-fake-gameb DIR`, the CLI run from source (the package's dist is not built in these tests). */
async function installWithCli(): Promise<{ dir: string; stdout: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-fake-gameb-cli-'));
  dirs.push(dir);
  const { stdout } = await run(process.execPath, ['--conditions=@garrison/source', '--import', 'tsx', cli, 'install-fake-gameb', dir]);
  return { dir, stdout };
}

async function logLines(game: FakeGameb, file?: string): Promise<string[]> {
  const logs = (await readdir(join(game.dir, 'logs'))).sort();
  return (await readFile(join(game.dir, 'logs', file ?? logs.at(-1)!), 'utf8')).split('\n').filter(Boolean);
}

describe('the fake gameb dedicated server', () => {
  it('is installed by the CLI: both launchers and the game folders', async () => {
    const { dir, stdout } = await installWithCli();
    assert.deepEqual(stdout.trim().split('\n'), [join(dir, 'gamebserver'), join(dir, 'gamebserver.exe')]);
    for (const exe of ['gamebserver', 'gamebserver.exe']) await access(join(dir, exe), constants.X_OK);
    for (const sub of ['cfg', 'maps', 'logs']) assert.deepEqual(await readdir(join(dir, sub)), []);
    const usage = await run(process.execPath, ['--conditions=@garrison/source', '--import', 'tsx', cli, 'install-fake-gamec', dir]).catch(
      (err: { code: number; stderr: string }) => err,
    );
    assert.equal((usage as { code: number }).code, 2);
    assert.match((usage as { stderr: string }).stderr, /install-fake-gameb DIR/);
  });

  it('starts from the CLI install, logs, shows players in status, kicks, says, and quits with 0', async () => {
    const { dir } = await installWithCli();
    const game = await launch({ dir, cfgLines: ['sv_password "join me" // a comment', 'sv_maxrate 0', 'mp_timelimit 30'] });
    assert.match(game.process.stdout.join('\n'), /Started map "de_test"/);
    assert.equal(await game.command('sv_password'), '"sv_password" = "join me"\n');
    assert.equal(await game.command('mp_timelimit'), '"mp_timelimit" = "30"\n');
    assert.equal(await game.command('testkit.join "Player One" STEAM_0:1:1234 1.2.3.4:27005'), 'joined userid 2\n');
    assert.equal(await game.command('testkit.join Second [U:1:2000] 5.6.7.8'), 'joined userid 3\n');
    const status = await game.command('status');
    assert.match(status, /^hostname: Fake gameb$/m);
    assert.match(status, /^map {5}: de_test$/m);
    assert.match(status, /^players : 2 humans, 0 bots \(16 max\)$/m);
    assert.match(status, /^# userid name +uniqueid +connected ping loss state +adr$/m);
    assert.match(status, /^# {6}2 "Player One" +STEAM_0:1:1234 +00:\d\d +\d+ +0 active 1\.2\.3\.4:27005$/m);
    assert.match(status, /^# {6}3 "Second" +STEAM_0:0:1000 +00:\d\d +\d+ +0 active 5\.6\.7\.8:27005$/m);

    assert.equal(await game.command('kickid 3 Too loud'), 'Kicked Second\n');
    assert.match(await game.command('kickid 99'), /no player 99/);
    assert.equal(await game.command('say Hello all'), '');
    assert.equal(await game.command('echo "quoted words"'), 'quoted words\n');
    assert.equal(await game.command('nonsense_cmd 1'), 'Unknown command "nonsense_cmd"\n');
    await game.command('testkit.leave 2');
    assert.match(await game.command('status'), /^players : 0 humans/m);
    assert.equal((await game.command('testkit.bigreply 20000')).length, 20_000);

    const log = await logLines(game);
    assert.ok(
      log.every((l) => LOG_LINE.test(l)),
      'every line stamped',
    );
    const text = log.map((l) => l.replace(LOG_LINE, ''));
    const expected = [
      new RegExp(`^Log file started \\(file "logs/${today()}000\\.log"\\) \\(game ".*"\\) \\(version "[^"]+"\\)$`),
      /^Started map "de_test" \(CRC "-?\d+"\)$/,
      /^rcon from "127\.0\.0\.1:\d+": command "status"$/,
      /^"Player One<2><STEAM_0:1:1234><>" connected, address "1\.2\.3\.4:27005"$/,
      /^"Player One<2><STEAM_0:1:1234><>" entered the game$/,
      /^"Second<3><STEAM_0:0:1000><>" disconnected \(reason "Too loud"\)$/,
      /^"Console<0><Console><Console>" say "Hello all"$/,
      /^"Player One<2><STEAM_0:1:1234><>" disconnected \(reason "Disconnect by user\."\)$/,
    ];
    for (const line of expected)
      assert.ok(
        text.some((t) => line.test(t)),
        `${line} in the log`,
      );
    assert.ok(!text.some((t) => t.includes('join me')), 'no password in the log');
    assert.ok(game.process.stdout.includes('Console: Hello all'));

    assert.equal(await game.command('quit'), '');
    assert.equal(await withDeadline(game.process.exited, 10_000, 'exit after quit'), 0);
    assert.equal((await logLines(game)).at(-1)!.replace(LOG_LINE, ''), 'Log file closed');
  });

  it('answers in several packets of at most 4096 bytes, any size', async () => {
    const game = await launch();
    const c = await game.connect();
    const { body, packets } = await c.command('testkit.bigreply 20000', 500);
    assert.equal(body, bigReplyText(20_000));
    assert.deepEqual(
      packets.map((p) => [p.id, p.raw.length]),
      [4096, 4096, 4096, 4096, 3616].map((n) => [500, n]),
    );
    const cvars = await c.command('cvarlist', 600);
    assert.ok(cvars.packets.length > 1, `cvarlist in ${cvars.packets.length} packets`);
    assert.match(cvars.body, /^hostname +: Fake gameb : , "sv"$/m);
    assert.match(cvars.body, /\d+ total convars\/concommands\n$/);
  });

  it('changes level only to a map it has, with a new log file each map, and follows mapcycle.txt', async () => {
    const game = await launch({ maps: ['de_test', 'cs_office', 'de_nuke'] });
    await writeFile(join(game.dir, 'mapcycle.txt'), '// rotation\nde_nuke\n\ncs_office\n');
    assert.equal(await game.command('changelevel de_missing'), 'changelevel failed: de_missing not found\n');
    assert.equal(await game.command('changelevel cs_office'), '');
    assert.match(await game.command('status'), /^map {5}: cs_office$/m);
    const files = (await readdir(join(game.dir, 'logs'))).sort();
    assert.deepEqual(files, [`${today()}000.log`, `${today()}001.log`]);
    assert.equal((await logLines(game, files[0])).at(-1)!.replace(LOG_LINE, ''), 'Log file closed');
    const current = (await logLines(game, files[1])).map((l) => l.replace(LOG_LINE, ''));
    assert.match(current[0], new RegExp(`^Log file started \\(file "logs/${files[1]}"\\)`));
    assert.ok(current.some((l) => /^Started map "cs_office"/.test(l)));
    assert.equal(await game.command('testkit.endmap'), 'next map de_nuke\n');
    assert.equal(await game.command('testkit.endmap'), 'next map cs_office\n');
    assert.match(await game.command('maps *'), /PENDING: {3}\(fs\) de_nuke\.bsp/);
  });

  it('runs without a map when +map names none it has, as srcds does: RCON answers, nobody joins', async () => {
    const game = await launch({ map: 'de_gone', maps: ['de_other'] });
    assert.ok(game.process.stdout.includes('map load failed: de_gone not found or invalid'));
    assert.match(await game.command('status'), /^map {5}: $/m);
    assert.match(await game.command('testkit.join P STEAM_0:0:5 1.1.1.1'), /refused: Server is not running a map/);
    assert.equal(await game.command('changelevel de_other'), '');
    assert.equal(await game.command('testkit.join P STEAM_0:0:5 1.1.1.1'), 'joined userid 2\n');
  });

  it('numbers its log files on from the last one of the day, and exits 0 on SIGTERM', async () => {
    const game = await launch();
    await writeFile(join(game.dir, 'logs', `${today()}041.log`), 'older\n');
    game.process.child.kill('SIGTERM');
    assert.equal(await withDeadline(game.process.exited, 10_000, 'exit on SIGTERM'), 0);
    const again = await launch({ dir: game.dir });
    await again.command('echo hi');
    assert.ok((await readdir(join(game.dir, 'logs'))).includes(`${today()}042.log`));
    again.process.child.kill('SIGTERM');
    assert.equal(await withDeadline(again.process.exited, 10_000, 'exit on SIGTERM'), 0);
  });

  it('cuts its RCON clients on testkit.dropclients, and takes a new rcon_password for later logins', async () => {
    const game = await launch();
    const c = await game.connect();
    assert.equal((await c.command('testkit.dropclients')).body, '');
    await withDeadline(c.closed, 5000, 'the cut');
    const again = await game.connect();
    assert.equal((await again.command('rcon_password Second2')).body, '');
    assert.equal((await again.command('echo still in')).body, 'still in\n', 'a logged-in connection stays');
    const fresh = await game.connect().catch((err: Error) => err);
    assert.match(String(fresh), /refused its own rcon_password/);
    const raw = await RawSourceConnection.open('127.0.0.1', game.port);
    try {
      assert.equal(await raw.auth('Second2'), true);
    } finally {
      await raw.close();
    }
  });

  it('exits 3 at once on testkit.crash, and ignores quit after testkit.hang', async () => {
    const game = await launch();
    await game.command('testkit.hang');
    await game.command('quit');
    // A negative: an honoured quit ends the process within a second, so it must still answer after 1.5 s.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(game.process.child.exitCode, null);
    await game.command('testkit.crash');
    assert.equal(await withDeadline(game.process.exited, 10_000, 'exit after testkit.crash'), 3);
  });

  describe('refuses to start (exit 1, the reason on stderr)', () => {
    const refusal = async (prepare: (dir: string, args: string[]) => Promise<string[]>, reason: RegExp) => {
      const { dir } = await installWithCli();
      await writeFile(join(dir, 'maps', 'de_test.bsp'), 'VBSP');
      await writeFile(join(dir, 'cfg', 'server.cfg'), 'rcon_password "x1"\n');
      const port = await freePorts(1);
      const base = ['-console', '-port', String(port), '+ip', '0.0.0.0', '+maxplayers', '8', '+map', 'de_test', '+exec', 'server.cfg'];
      const p = startProcess(join(dir, 'gamebserver'), await prepare(dir, base));
      try {
        assert.equal(await withDeadline(p.exited, 20_000, 'exit on refusal'), 1);
        assert.match(p.stderr.join(''), reason);
      } finally {
        await p.kill();
      }
    };

    it('on an unknown argument', () => refusal(async (_d, a) => [...a, '-game', 'x'], /unknown argument "-game"/));
    it('without +map', () => refusal(async (_d, a) => a.slice(0, -4).concat(a.slice(-2)), /missing \+map/));
    it('without rcon_password', () =>
      refusal(async (d, a) => (await writeFile(join(d, 'cfg', 'server.cfg'), 'hostname "x"\n'), a), /no rcon_password/));
    it('when the exec file is missing', () => refusal(async (_d, a) => [...a.slice(0, -1), 'other.cfg'], /couldn't exec other\.cfg/));
    it('when its game port is taken', async () => {
      const blocker = createSocket('udp4');
      try {
        await refusal(async (_d, a) => {
          blocker.bind(Number(a[2]), '127.0.0.1');
          await once(blocker, 'listening');
          return a;
        }, /port in use/);
      } finally {
        blocker.close();
      }
    });
  });

  it('waits GAMEB_FAKE_READY_MS before RCON listens', async () => {
    const started = Date.now();
    const game = await launch({ env: { GAMEB_FAKE_READY_MS: '3000' } });
    assert.ok(Date.now() - started >= 3000, 'RCON came up after the delay');
    await waitFor(() => game.process.stdout.includes('Connection to Steam servers successful.'), { what: 'the ready line' });
  });
});
