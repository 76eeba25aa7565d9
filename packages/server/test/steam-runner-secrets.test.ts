import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@garrison/core';
import { FAKE_STEAM_ACCOUNTS, FAKE_STEAM_IDS, FakeSteamWorld, installFakeSteamcmd, waitFor } from '@garrison/testkit';
import { SystemClock } from '../src/jobs/clock.js';
import { createServer, startHarness, type Harness } from './helpers.js';
import { runSteamCmd } from '../src/steam/runner.js';
import type { SteamCall } from '../src/steam/arguments.js';

/*
 * What a local user, a log or a viewer could learn of the Steam account from a SteamCMD run: the runner,
 * then the service, against the testkit's fake steamcmd.
 */

const world = FakeSteamWorld.create();
// The fake reads its world from the environment it is spawned with: what the service hands it of its own.
Object.assign(process.env, world.env());
const root = mkdtempSync(join(tmpdir(), 'garrison-steam-secrets-'));
after(() => {
  world.remove();
  rmSync(root, { recursive: true, force: true });
});

const { guarded, owner } = FAKE_STEAM_ACCOUNTS;
/** The first game's dedicated server, as its adapter declares it; the fake world gets an app of that id. */
const APP = '233780';
const BRANCH_PASSWORD = 'Legacy-Pass';
const SECRETS = [guarded.password, guarded.guard_code, BRANCH_PASSWORD];

/** The command lines of the running processes that run `executable` (its launcher passes its path on). */
function commandLinesOf(executable: string): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(executable)) lines.push(cmdline.split('\0').join(' '));
    } catch (err) {
      if (!['ENOENT', 'ESRCH', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return lines;
}

describe('the secrets of a SteamCMD run', () => {
  it('never reach its command line: they go in a runscript only the service reads, removed after the run', async () => {
    const { executables } = await installFakeSteamcmd(join(root, 'bin'));
    const scriptDir = join(root, 'private');
    mkdirSync(scriptDir);
    world.setDelay(150); // a run long enough to be seen running
    const call: SteamCall = {
      installDir: join(root, 'server'),
      login: { username: guarded.username, password: guarded.password, guardCode: guarded.guard_code },
      work: { kind: 'app_update', appId: FAKE_STEAM_IDS.serverApp, branch: 'legacy', branchPassword: BRANCH_PASSWORD },
    };
    const seen: string[] = [];
    let scriptModes: number[] = [];
    const run = runSteamCmd(call, {
      executable: executables[0],
      clock: new SystemClock(),
      env: { ...process.env, ...world.env() },
      scriptDir,
      onLine: () => {
        seen.push(...commandLinesOf(executables[0]));
        for (const dir of readdirSync(scriptDir)) {
          scriptModes = [statSync(join(scriptDir, dir)).mode & 0o777, statSync(join(scriptDir, dir, 'run.txt')).mode & 0o777];
        }
      },
    });
    const result = await run;
    assert.equal(result.appInstalled, true);
    assert.ok(seen.length > 0, 'the fake was seen running');
    for (const line of seen) for (const secret of SECRETS) assert.ok(!line.includes(secret), `a secret on the command line: ${line}`);
    assert.ok(seen.every((line) => line.includes('+runscript')));
    assert.deepEqual(scriptModes, [0o700, 0o600]);
    assert.deepEqual(readdirSync(scriptDir), [], 'the runscript is removed after the run');
    // What ran is what the runscript said: the login, the Guard code and the branch password reached SteamCMD.
    const ran = world.invocations().at(-1)!;
    assert.deepEqual(ran.argv.slice(ran.argv.indexOf('+login'), ran.argv.indexOf('+login') + 4), [
      '+login',
      guarded.username,
      '***',
      '***',
    ]);
    assert.ok(ran.argv.includes('-betapassword'));

    // A failed run removes its runscript too.
    world.setDelay(0);
    const wrong = { ...call, login: { username: guarded.username, password: 'Not-The-Password' } };
    await assert.rejects(
      runSteamCmd(wrong, { executable: executables[0], clock: new SystemClock(), env: { ...process.env, ...world.env() }, scriptDir }),
      (err: ApiError) => err.code === 'STEAM_LOGIN_FAILED',
    );
    assert.deepEqual(readdirSync(scriptDir), []);
  });
});

describe('SteamCMD as the service runs it', () => {
  let h: Harness;
  let serverId: number;
  const serviceRoot = join(root, 'service');
  const api = (method: string, path: string, body?: unknown) => h.api(method, path, { token: h.adminToken, body });
  const job = async (id: number, token = h.adminToken) => (await h.api('GET', `/jobs/${id}`, { token })).body.data;
  const ended = (id: number) =>
    waitFor(async () => (['queued', 'running'].includes((await job(id)).status) ? null : job(id)), {
      timeoutMs: 30_000,
      what: `job ${id} ended`,
    });
  const install = async () => {
    const res = await api('POST', `/servers/${serverId}/install`);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data.job_id as number;
  };

  before(async () => {
    world.edit((s) => {
      s.apps[APP] = { ...s.apps[FAKE_STEAM_IDS.serverApp], branches: { public: { buildid: '10000', timeupdated: 1_700_000_000 } } };
      for (const account of Object.values(s.accounts)) if (account.owns.includes(FAKE_STEAM_IDS.serverApp)) account.owns.push(APP);
    });
    const { executables } = await installFakeSteamcmd(join(serviceRoot, 'bin'));
    h = await startHarness({ steamcmdPath: executables[0], steamDir: join(serviceRoot, 'steam') });
    serverId = (await createServer(h, { exe_path: join(serviceRoot, 'server', 'gameaserver_x64.exe') })).id;
    assert.equal((await api('PUT', '/steam/account', owner)).status, 200);
  });
  after(() => h?.close());

  it("shows viewers nothing of the Steam account: not its name in a job's log, nor in a failed login's error", async () => {
    const done = await ended(await install());
    assert.equal(done.status, 'done', JSON.stringify(done));
    assert.ok(
      done.log.some((line: string) => line.includes('the Steam account')),
      done.log.join('\n'),
    );
    await api('PUT', '/steam/account', { username: owner.username, password: 'Wrong-Password-7' });
    const refused = await ended(await install());
    assert.equal(refused.error.code, 'STEAM_LOGIN_FAILED');
    for (const id of [done.id, refused.id]) {
      const seen = JSON.stringify(await job(id, h.viewerToken));
      assert.ok(seen.includes('"status"'), seen);
      assert.ok(!seen.includes(owner.username), `the account's name shown to a viewer: ${seen}`);
      assert.ok(!seen.includes(owner.password) && !seen.includes('Wrong-Password-7'));
    }
    await api('PUT', '/steam/account', owner);
  });

  it('refuses at PUT /steam/account a password the runner would refuse, naming the field, never the value', async () => {
    for (const password of ['Quote"Secret-1', 'Line\nBreak-Secret-2', '+Plus-Secret-3', 'Tab\tSecret-4', '']) {
      const res = await api('PUT', '/steam/account', { username: owner.username, password });
      assert.equal(res.status, 400, `${JSON.stringify(password)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'VALIDATION_ERROR');
      assert.match(res.body.error.message, /password/);
      if (password) assert.ok(!JSON.stringify(res.body).includes(password.slice(0, 5)), JSON.stringify(res.body));
    }
    const branch = await api('POST', `/servers/${serverId}/install`, { branch: 'legacy', branch_password: 'Quote"Branch-5' });
    assert.equal(branch.status, 400);
    assert.ok(!JSON.stringify(branch.body).includes('Branch-5'));
    // What the runner takes, the API takes: a password with spaces goes quoted into the runscript.
    assert.equal((await api('PUT', '/steam/account', { username: owner.username, password: 'with spaces ok' })).status, 200);
    assert.equal((await api('PUT', '/steam/account', owner)).status, 200);
    assert.equal((await api('GET', '/steam/account')).body.data.username, owner.username, 'the account kept');
  });

  it("gives SteamCMD a minimal environment: nothing of the service's own settings and secrets", async () => {
    process.env.GARRISON_SECRET_OF_THE_TEST = 'must-not-reach-steamcmd';
    process.env.SOME_DATABASE_PASSWORD = 'must-not-reach-steamcmd-either';
    try {
      const done = await ended(await install());
      assert.equal(done.status, 'done', JSON.stringify(done));
    } finally {
      delete process.env.GARRISON_SECRET_OF_THE_TEST;
      delete process.env.SOME_DATABASE_PASSWORD;
    }
    const { env } = world.invocations().at(-1)!;
    assert.deepEqual(
      env.filter((name) => name.startsWith('GARRISON_') || name.includes('PASSWORD') || name.includes('SECRET')),
      [],
      env.join(' '),
    );
    assert.ok(env.includes('PATH') && env.includes('HOME') && env.includes('STEAMCMD_FAKE_STATE'), env.join(' '));
    const allowed = /^(PATH|HOME|LANG|LANGUAGE|LC_ALL|LC_CTYPE|LC_MESSAGES|TZ|TMPDIR|USER|LOGNAME|TERM|STEAMCMD_.*)$/;
    // What the shell of the fake's launcher adds to it (PWD, SHLVL, _) aside.
    assert.deepEqual(
      env.filter((name) => !allowed.test(name) && !['PWD', 'OLDPWD', 'SHLVL', '_'].includes(name)),
      [],
    );
  });
});
