import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, constants, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parse } from '@node-steam/vdf';
import { APP_UPDATE_STATES, FAKE_STEAM_ACCOUNTS as ACCOUNTS, FAKE_STEAM_IDS as IDS } from '../src/index.js';
import { loginArgs, steamcmdBenches } from './steamcmd-run.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const { owner, guarded, poor } = ACCOUNTS;
const ownerLogin = [owner.username, owner.password];

const bench = steamcmdBenches();

const manifest = async (dir: string, app: string) =>
  (parse(await readFile(join(dir, 'steamapps', `appmanifest_${app}.acf`), 'utf8')) as { AppState: Record<string, any> }).AppState;

describe('the fake steamcmd', () => {
  it('is installed by the CLI as DIR/steamcmd', async () => {
    const b = await bench();
    const dir = join(b.dir, 'cli');
    const { stdout } = await run(process.execPath, ['--conditions=@garrison/source', '--import', 'tsx', cli, 'install-fake-steamcmd', dir]);
    assert.equal(stdout.trim(), join(dir, 'steamcmd'));
    await access(join(dir, 'steamcmd'), constants.X_OK);
    const usage = await run(process.execPath, ['--conditions=@garrison/source', '--import', 'tsx', cli]).catch(
      (err: { stderr: string }) => err,
    );
    assert.match(usage.stderr, /install-fake-steamcmd DIR/);
  });

  it('installs a branch with its password: banner, login, progress, success, the files and the app manifest', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server');
    const args = [
      ...loginArgs(dir, ownerLogin),
      '+app_update',
      IDS.serverApp,
      '-beta',
      'legacy',
      '-betapassword',
      'Legacy-Pass',
      'validate',
    ];
    const { code, lines } = await b.run([...args, '+quit']);
    assert.equal(code, 0);
    assert.equal(lines[0], `Redirecting stderr to '${join(b.dir, 'steamcmd', 'logs', 'stderr.txt')}'`);
    assert.ok(lines.includes('Loading Steam API...OK'));
    const at = (line: string) => lines.indexOf(line);
    assert.ok(at(`Logging in user '${owner.username}' [U:1:0] to Steam Public...OK`) > at('Loading Steam API...OK'));
    assert.ok(at('Waiting for user info...OK') > 0);
    assert.ok(at(' Update state (0x3) reconfiguring, progress: 0.00 (0 / 0)') > at('Waiting for user info...OK'));
    const progress = lines.filter((l) => /^ Update state \(0x61\) downloading, progress: \d+\.\d\d \(\d+ \/ 2736373\)$/.test(l));
    assert.ok(progress.length >= 3, lines.join('\n'));
    assert.ok(progress.includes(' Update state (0x61) downloading, progress: 45.12 (1234651 / 2736373)'));
    assert.equal(lines.at(-1), `Success! App '${IDS.serverApp}' fully installed.`);
    assert.equal(await readFile(join(dir, 'keys', 'fakegame.bikey'), 'utf8'), 'fake bikey fakegame\n');
    const state = await manifest(dir, IDS.serverApp);
    assert.equal(String(state.appid), IDS.serverApp);
    assert.equal(state.name, 'Fake Game Dedicated Server');
    assert.equal(state.StateFlags, 4);
    assert.equal(state.installdir, 'Fake Game Server');
    assert.equal(String(state.buildid), '9000');
    assert.ok(state.LastUpdated > 1_700_000_000 && state.SizeOnDisk > 0);
    assert.equal(state.UserConfig.betakey, 'legacy');
    assert.equal(state.MountedConfig.betakey, 'legacy');
    // The log keeps the arguments, every secret masked.
    const [logged] = b.world.invocations();
    assert.deepEqual(logged.argv, [...args.map((a) => (a === owner.password || a === 'Legacy-Pass' ? '***' : a)), '+quit']);
    assert.equal(logged.exit_code, 0);
    const raw = await readFile(b.world.logPath, 'utf8');
    assert.ok(!raw.includes(owner.password) && !raw.includes('Legacy-Pass'));
  });

  it('reads its commands from a +runscript file: one a line, values with spaces quoted, comments skipped', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server with space');
    const script = join(b.dir, 'run.txt');
    b.world.setAccount('spaced_user', { password: 'two words ', owns: [IDS.serverApp] });
    const lines = [
      '// the runner writes one command a line',
      '@NoPromptForPassword "1"',
      '@ShutdownOnFailedCommand 1',
      `force_install_dir "${dir}"`,
      '',
      'login "spaced_user" "two words "',
      `app_update "${IDS.serverApp}" validate`,
    ];
    await writeFile(script, `${lines.join('\n')}\n`);
    const { code, lines: out } = await b.run(['+runscript', script, '+quit']);
    assert.equal(code, 0, out.join('\n'));
    assert.equal(out.at(-1), `Success! App '${IDS.serverApp}' fully installed.`);
    const [logged] = b.world.invocations();
    assert.deepEqual(logged.cmdline, ['+runscript', script, '+quit']);
    assert.deepEqual(logged.argv.slice(logged.argv.indexOf('+force_install_dir')), [
      '+force_install_dir',
      dir,
      '+login',
      'spaced_user',
      '***',
      '+app_update',
      IDS.serverApp,
      'validate',
      '+quit',
    ]);
    assert.equal((await b.run(['+runscript', join(b.dir, 'missing.txt'), '+quit'])).code, 1);
  });

  it('says "already up to date" for the installed build, installs a new build, and public as no betakey', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server');
    const update = [...loginArgs(dir, ownerLogin), '+app_update', IDS.serverApp, '+quit'];
    assert.equal((await b.run(update)).code, 0);
    assert.equal(String((await manifest(dir, IDS.serverApp)).buildid), '10000');
    assert.equal((await manifest(dir, IDS.serverApp)).UserConfig.betakey, undefined);
    assert.equal((await b.run(update)).lines.at(-1), `Success! App '${IDS.serverApp}' already up to date.`);
    b.world.setBuild(IDS.serverApp, 'public', '10002');
    assert.equal((await b.run(update)).lines.at(-1), `Success! App '${IDS.serverApp}' fully installed.`);
    assert.equal(String((await manifest(dir, IDS.serverApp)).buildid), '10002');
  });

  it('prints app info: the header and the VDF with every branch, a protected one marked pwdrequired', async () => {
    const b = await bench();
    b.world.setBuild(IDS.serverApp, 'public', '10005', { timeupdated: 1_700_100_000 });
    const { code, lines } = await b.run(['+login', 'anonymous', '+app_info_update', '1', '+app_info_print', IDS.serverApp, '+quit']);
    assert.equal(code, 0);
    const header = lines.findIndex((l) => l.startsWith('AppID : '));
    assert.match(lines[header], /^AppID : 1000010, change number : (\d+)\/\1, last change : Thu Nov 16 02:00:00 2023$/);
    const info = parse(lines.slice(header + 1).join('\n')) as Record<string, any>;
    const branches = info[IDS.serverApp].depots.branches;
    assert.equal(String(branches.public.buildid), '10005');
    assert.equal(branches.public.timeupdated, 1_700_100_000);
    assert.equal(String(branches.legacy.buildid), '9000');
    assert.equal(branches.legacy.pwdrequired, 1);
    assert.equal(branches.public.pwdrequired, undefined);
    assert.equal(info[IDS.serverApp].common.name, 'Fake Game Dedicated Server');
    const unknown = await b.run(['+login', 'anonymous', '+app_info_print', '999', '+quit']);
    assert.ok(unknown.lines.includes('No app info for AppID 999 found, requesting...'));
  });

  it('fails logins as Steam does: a wrong password, the rate limit, Steam Guard without or with a wrong code', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server');
    const attempt = (login: string[]) => b.run([...loginArgs(dir, login), '+app_update', IDS.serverApp, '+quit']);
    const prefix = (user: string) => `Logging in user '${user}' [U:1:0] to Steam Public...`;

    const wrong = await attempt([owner.username, 'nope']);
    assert.equal(wrong.code, 5);
    assert.equal(wrong.lines.at(-1), `${prefix(owner.username)}FAILED (Invalid Password)`);
    assert.ok(!wrong.lines.some((l) => l.includes('Update state')), 'the run ends at the failed login');
    assert.equal((await attempt(['nobody', 'x'])).lines.at(-1), `${prefix('nobody')}FAILED (Invalid Password)`);

    b.world.setFault({ kind: 'rate_limit', times: 1 });
    const limited = await attempt(ownerLogin);
    assert.equal(limited.code, 5);
    assert.equal(limited.lines.at(-1), `${prefix(owner.username)}FAILED (Rate Limit Exceeded)`);
    assert.equal((await attempt(ownerLogin)).code, 0, 'the rate limit was for one login');

    const noCode = await attempt([guarded.username, guarded.password]);
    assert.equal(noCode.code, 5);
    const guardText = noCode.lines.slice(noCode.lines.indexOf(prefix(guarded.username)));
    assert.equal(guardText[1], 'This computer has not been authenticated for your account using Steam Guard.');
    assert.equal(guardText.at(-1), 'Steam Guard code:FAILED (Account Logon Denied)');
    const badCode = await attempt([guarded.username, guarded.password, 'ZZZZZ']);
    assert.equal(badCode.code, 5);
    assert.equal(badCode.lines.at(-1), `${prefix(guarded.username)}FAILED (Invalid Login Auth Code)`);
    const withCode = await attempt([guarded.username, guarded.password, guarded.guard_code]);
    assert.equal(withCode.code, 0);
    assert.ok(withCode.lines.includes(`${prefix(guarded.username)}OK`));
    assert.equal((await attempt([guarded.username, guarded.password])).code, 5, 'the code is asked on every login');

    b.world.edit((s) => void (s.accounts[guarded.username].remember_guard = true));
    assert.equal((await attempt([guarded.username, guarded.password, guarded.guard_code])).code, 0);
    assert.equal((await attempt([guarded.username, guarded.password])).code, 0, 'a remembered machine needs no code');
    const secrets = await readFile(b.world.logPath, 'utf8');
    for (const secret of [owner.password, guarded.password, guarded.guard_code, 'ZZZZZ']) assert.ok(!secrets.includes(secret), secret);
  });

  it('refuses what the login may not install, a wrong beta password and an unknown branch', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server');
    const update = (login: string[], ...extra: string[]) => b.run([...loginArgs(dir, login), '+app_update', ...extra, '+quit']);
    const refused = (reason: string, app = IDS.serverApp) => `ERROR! Failed to install app '${app}' (${reason})`;
    for (const [login, extra, reason] of [
      [['anonymous'], [IDS.serverApp], 'No subscription'],
      [[poor.username, poor.password], [IDS.serverApp], 'No subscription'],
      [ownerLogin, [IDS.serverApp, '-beta', 'legacy'], 'Invalid Password'],
      [ownerLogin, [IDS.serverApp, '-beta', 'legacy', '-betapassword', 'guess'], 'Invalid Password'],
      [ownerLogin, [IDS.serverApp, '-beta', 'nightly'], 'Invalid beta branch'],
    ] as const) {
      const { code, lines } = await update([...login], ...extra);
      assert.equal(code, 8, `${login[0]} ${extra.join(' ')}`);
      assert.equal(lines.at(-1), refused(reason));
    }
    // Anonymous where the app allows it; without force_install_dir into steamcmd's own steamapps/common/.
    const free = await b.run(['+login', 'anonymous', '+app_update', IDS.anonymousServerApp, '+quit']);
    assert.equal(free.lines.at(-1), `Success! App '${IDS.anonymousServerApp}' fully installed.`);
    await access(join(b.dir, 'steamcmd', 'steamapps', 'common', 'Fake Free Server', 'freeserver'));
    await access(join(b.dir, 'steamcmd', 'steamapps', `appmanifest_${IDS.anonymousServerApp}.acf`));
  });

  it('ends an update in the failed state a fault sets (disk full once, then the network), then installs', async () => {
    const b = await bench();
    const dir = join(b.dir, 'server');
    const update = () => b.run([...loginArgs(dir, ownerLogin), '+app_update', IDS.serverApp, 'validate', '+quit']);
    b.world.setFault({ kind: 'app_state', app: IDS.serverApp, state: APP_UPDATE_STATES.diskFull, times: 1 });
    const full = await update();
    assert.equal(full.code, 8);
    assert.equal(full.lines.at(-1), `Error! App '${IDS.serverApp}' state is 0x202 after update job.`);
    assert.ok(full.lines.some((l) => l.startsWith(' Update state (0x61) downloading')));
    assert.equal((await update()).code, 0, 'the disk-full fault was for one update');
    for (const [state, text] of [
      [APP_UPDATE_STATES.network, '0x402'],
      [APP_UPDATE_STATES.networkIncomplete, '0x602'],
    ] as const) {
      b.world.setFault({ kind: 'app_state', app: IDS.serverApp, state });
      for (let i = 0; i < 2; i += 1)
        assert.equal((await update()).lines.at(-1), `Error! App '${IDS.serverApp}' state is ${text} after update job.`);
      b.world.clearFaults();
    }
    assert.equal((await update()).code, 0);
  });
});
