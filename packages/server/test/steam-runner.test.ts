import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@garrison/core';
import { FakeClock, SystemClock, type Clock } from '../src/jobs/clock.js';
import { runSteamCmd, type SteamRunOptions } from '../src/steam/runner.js';
import type { SteamCall } from '../src/steam/arguments.js';

/*
 * The runner against a real process: a shell script standing for steamcmd.sh, which runs a node script
 * that prints what the test's plan says and pauses (fixtures/steamcmd-script.mjs).
 */

const SCRIPT = new URL('fixtures/steamcmd-script.mjs', import.meta.url).pathname;
const PASSWORD = 'hunter2-Secret';
const GUARD = '7KX2Q';
const root = mkdtempSync(join(tmpdir(), 'garrison-steam-runner-'));
let planCount = 0;
const started: number[] = [];

after(() => {
  for (const pid of started) signalIfAlive(pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

type Step = { out: string } | { sleep: number } | { ignoreTerm: true } | { child: true } | { exit: number };

/** A steamcmd for this test: its plan, its executable, and what its runs recorded. */
function fakeSteamCmd(runs: Step[][], { exec = false } = {}) {
  const dir = join(root, `plan-${(planCount += 1)}`);
  rmSync(dir, { recursive: true, force: true });
  const plan = `${dir}.json`;
  writeFileSync(plan, JSON.stringify({ runs }));
  const executable = `${dir}.sh`;
  // Like steamcmd.sh: a shell that runs the program as its child (not exec), so a stop must reach the group;
  // with `exec`, the program itself leads the group (and may ignore SIGTERM).
  writeFileSync(executable, `#!/bin/sh\n${exec ? 'exec ' : ''}"${process.execPath}" "${SCRIPT}" "$@"\n`);
  chmodSync(executable, 0o755);
  const lines = (suffix: string) => readFileSync(`${plan}.${suffix}`, 'utf8').split('\n').filter(Boolean);
  const read = (suffix: string) => {
    try {
      return lines(suffix);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  };
  return {
    executable,
    env: { ...process.env, STEAMCMD_FIXTURE_PLAN: plan },
    runs: () => read('runs').map((l) => JSON.parse(l) as { pid: number; argv: string[]; cmdline: string[] }),
    pids: () => [...read('runs').map((l) => (JSON.parse(l) as { pid: number }).pid), ...read('children').map(Number)],
  };
}

function signalIfAlive(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Whether `pid` runs (a zombie has ended: only its exit status waits to be collected). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Polls `check` until it holds, failing after `ms`. */
async function eventually(check: () => boolean, ms = 5000, what = 'the condition') {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const login = { username: 'fixture_user', password: PASSWORD, guardCode: GUARD };
const workshop = (items: string[]): SteamCall => ({ installDir: root, login, work: { kind: 'workshop', appId: '1000002', items } });
const appUpdate: SteamCall = { installDir: root, login, work: { kind: 'app_update', appId: '1000001' } };
const loginOk = { out: "Command line: {args}\nLogging in user 'fixture_user' [U:1:0] to Steam Public...OK\n" };
const item = (id: string) => ({ out: `Success. Downloaded item ${id} to "/steam/content/1000002/${id}" (${id.length * 1000} bytes)\n` });
const itemFails = (id: string, reason: string) => ({ out: `ERROR! Download item ${id} failed (${reason}).\n` });

function options(fake: ReturnType<typeof fakeSteamCmd>, clock: Clock, more: Partial<SteamRunOptions> = {}) {
  const lines: string[] = [];
  const progress: number[] = [];
  const o: SteamRunOptions = {
    executable: fake.executable,
    env: fake.env,
    clock,
    retryDelayMs: 1000,
    onLine: (line) => lines.push(line),
    onProgress: (f) => progress.push(f),
    ...more,
  };
  return { o, lines, progress };
}

/** Runs `promise` while moving the fake clock on by `ms` each time a retry waits on it. */
async function withRetries<T>(clock: FakeClock, promise: Promise<T>, ms: number): Promise<T> {
  let settled = false;
  void promise.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
    if (clock.timers.some((t) => t.label === 'steamcmd retry')) {
      assert.deepEqual(
        clock.timers.filter((t) => t.label === 'steamcmd retry').map((t) => t.inMs),
        [ms],
      );
      await clock.advance(ms);
      ms *= 2; // the next wait is twice as long
    } else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return promise;
}

describe('the SteamCMD runner, against a process', () => {
  it(
    'downloads all items under one login per run, retries only the item that timed out, and never shows a secret',
    { timeout: 20_000 },
    async () => {
      const fake = fakeSteamCmd([
        [loginOk, item('11'), itemFails('22', 'Timeout'), { exit: 8 }], // stops at the failed one: 33 is not reached
        [loginOk, item('22'), item('33'), { exit: 0 }],
      ]);
      const clock = new FakeClock();
      const { o, lines, progress } = options(fake, clock);
      const result = await withRetries(clock, runSteamCmd(workshop(['11', '22', '33']), o), 1000);
      assert.deepEqual(
        result.items.map((i) => [i.itemId, i.status, i.attempts]),
        [
          ['11', 'downloaded', 1],
          ['22', 'downloaded', 2],
          ['33', 'downloaded', 1],
        ],
      );
      const runs = fake.runs();
      assert.equal(runs.length, 2);
      const itemsOf = (argv: string[]) => argv.flatMap((a, i) => (a === '+workshop_download_item' ? [argv[i + 2]] : []));
      assert.deepEqual(
        runs.map((r) => itemsOf(r.argv)),
        [
          ['11', '22', '33'],
          ['22', '33'],
        ],
      );
      assert.ok(runs.every((r) => r.argv.filter((a) => a === '+login').length === 1 && r.argv.includes(PASSWORD)));
      // The secrets reach SteamCMD through its runscript, never its command line.
      assert.ok(runs.every((r) => r.cmdline[0] === '+runscript' && !r.cmdline.join(' ').includes(PASSWORD)));
      const shown = [...lines, ...result.log].join('\n');
      assert.ok(!shown.includes(PASSWORD) && !shown.includes(GUARD), shown);
      assert.match(shown, /\+login the Steam account \*\*\* \*\*\*/);
      assert.ok(!shown.includes('fixture_user'), "the account's name is account data");
      assert.equal(progress.at(-1), 1);
    },
  );

  it('fails an item for good after its retries, and any other item failure at once', { timeout: 20_000 }, async () => {
    const fake = fakeSteamCmd([
      [loginOk, itemFails('44', 'Access Denied'), { exit: 8 }],
      [loginOk, itemFails('22', 'Timeout'), { exit: 8 }],
    ]);
    const clock = new FakeClock();
    const { o } = options(fake, clock, { retries: 1 });
    const result = await withRetries(clock, runSteamCmd(workshop(['44', '22']), o), 1000);
    assert.deepEqual(
      result.items.map((i) => [i.itemId, i.status, i.attempts, i.status === 'failed' ? i.error.code : null]),
      [
        ['44', 'failed', 1, 'STEAM_ITEM_FAILED'],
        ['22', 'failed', 2, 'STEAM_ITEM_TIMEOUT'],
      ],
    );
    assert.equal(fake.runs().length, 3, 'one run for both, then 22 (not reached), then its one retry');
  });

  it('fails the job at once when Steam asks for a Guard code', { timeout: 20_000 }, async () => {
    const guard = "Logging in user 'fixture_user' [U:1:0] to Steam Public...\nSteam Guard code:FAILED (Account Logon Denied)\n";
    const fake = fakeSteamCmd([[{ out: guard }, { exit: 5 }]]);
    const { o } = options(fake, new SystemClock());
    await assert.rejects(runSteamCmd(workshop(['11']), o), (err: ApiError) => err.code === 'STEAM_GUARD_REQUIRED');
    assert.equal(fake.runs().length, 1);
  });

  it('ends a run when cancelled: SIGTERM, then SIGKILL to the whole group after the grace', { timeout: 20_000 }, async () => {
    // The leader ignores SIGTERM, as does the child it started: only the SIGKILL after the grace ends them.
    const fake = fakeSteamCmd([[{ ignoreTerm: true }, { child: true }, loginOk, { sleep: 25_000 }]], { exec: true });
    const cancel = new AbortController();
    const { o, lines } = options(fake, new SystemClock(), { signal: cancel.signal, killGraceMs: 300 });
    const run = runSteamCmd(appUpdate, o);
    try {
      await eventually(() => lines.some((l) => l.startsWith('Logging in')), 10_000, 'the login line');
      started.push(...fake.pids());
      const at = Date.now();
      cancel.abort();
      await assert.rejects(run, (err: Error) => err.name === 'AbortError');
      assert.ok(lines.includes('SIGTERM ignored'), 'asked first');
      assert.ok(Date.now() - at >= 250, 'killed after the grace, not before');
      await eventually(() => fake.pids().every((pid) => !alive(pid)), 5000, 'the script and its child gone');
    } finally {
      fake.pids().forEach((pid) => signalIfAlive(pid, 'SIGKILL'));
    }
  });

  it('stops a run that prints nothing for the idle limit', { timeout: 20_000 }, async () => {
    const fake = fakeSteamCmd([[loginOk, { sleep: 25_000 }]]);
    const { o } = options(fake, new SystemClock(), { idleTimeoutMs: 400, killGraceMs: 300 });
    try {
      await assert.rejects(
        runSteamCmd(appUpdate, o),
        (err: ApiError) => err.code === 'STEAMCMD_FAILED' && /printed nothing for 400 ms/.test(err.message),
      );
      await eventually(() => fake.pids().every((pid) => !alive(pid)), 5000, 'the script gone');
    } finally {
      fake.pids().forEach((pid) => signalIfAlive(pid, 'SIGKILL'));
    }
  });

  it('installs an app with its progress, and kills what it left behind holding its output', { timeout: 20_000 }, async () => {
    const progressLines = ' Update state (0x61) downloading, progress: 45.12 (1234567 / 2736373)\r';
    const fake = fakeSteamCmd([
      [loginOk, { child: true }, { out: progressLines }, { out: "Success! App '1000001' fully installed.\n" }, { exit: 0 }],
    ]);
    const { o, progress } = options(fake, new SystemClock());
    try {
      const result = await runSteamCmd(appUpdate, o);
      assert.equal(result.appInstalled, true);
      assert.deepEqual(progress, [1234567 / 2736373, 1]);
      await eventually(() => fake.pids().every((pid) => !alive(pid)), 5000, 'the child gone');
    } finally {
      fake.pids().forEach((pid) => signalIfAlive(pid, 'SIGKILL'));
    }
  });

  it('reports an exit without a known line, its last line masked, and a missing executable', { timeout: 20_000 }, async () => {
    const fake = fakeSteamCmd([[{ out: 'Something unexpected: {args}\n' }, { exit: 8 }]]);
    const { o } = options(fake, new SystemClock());
    await assert.rejects(runSteamCmd(appUpdate, o), (err: ApiError) => {
      assert.equal(err.code, 'STEAMCMD_FAILED');
      assert.match(err.message, /exited with code 8 before it installed app 1000001/);
      assert.ok(!err.message.includes(PASSWORD) && err.message.includes('***'), err.message);
      return true;
    });
    // A failed start is a clean error: not Node's, whose `spawnargs` is the whole command line.
    const notStarted = (code: string, reason: RegExp) => (err: ApiError) => {
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.code, code);
      assert.match(err.message, /^SteamCMD could not be started: /);
      assert.match(err.message, reason);
      assert.ok(!('spawnargs' in err) && !JSON.stringify(err).includes(PASSWORD) && !err.message.includes(PASSWORD));
      return true;
    };
    await assert.rejects(
      runSteamCmd(appUpdate, { ...o, executable: join(root, 'no-steamcmd-here') }),
      notStarted('STEAMCMD_NOT_FOUND', /\(ENOENT\)/),
    );
    const notExecutable = join(root, 'not-executable.sh');
    writeFileSync(notExecutable, '#!/bin/sh\n');
    chmodSync(notExecutable, 0o644);
    await assert.rejects(runSteamCmd(appUpdate, { ...o, executable: notExecutable }), notStarted('STEAMCMD_NOT_FOUND', /\(EACCES\)/));
    await assert.rejects(
      runSteamCmd(appUpdate, { ...o, cwd: join(root, 'no-such-folder') }),
      notStarted('STEAMCMD_NOT_FOUND', /\(ENOENT\)/),
    );
  });
});
