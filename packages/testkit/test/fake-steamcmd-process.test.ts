import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { FAKE_STEAM_ACCOUNTS as ACCOUNTS, FAKE_STEAM_IDS as IDS, waitFor, withDeadline } from '../src/index.js';
import { loginArgs, steamcmdBenches } from './steamcmd-run.js';

const ownerLogin = [ACCOUNTS.owner.username, ACCOUNTS.owner.password];

const bench = steamcmdBenches();

describe('the fake steamcmd as a process', () => {
  it('shows progress step by step with the delay of the state, and exits within a second on SIGTERM', async () => {
    const b = await bench();
    b.world.setDelay(2000);
    const proc = b.start([...loginArgs(join(b.dir, 'server'), ownerLogin), '+app_update', IDS.serverApp, '+quit']);
    await waitFor(() => proc.stdout.some((l) => l.startsWith(' Update state (0x61) downloading')), {
      timeoutMs: 20_000,
      what: 'the first progress line',
    });
    assert.ok(!proc.stdout.some((l) => l.startsWith('Success!')), 'still downloading');
    const t0 = Date.now();
    proc.child.kill('SIGTERM');
    assert.equal(await withDeadline(proc.exited, 5000, 'the exit on SIGTERM'), 'SIGTERM');
    assert.ok(Date.now() - t0 < 1000, `exited after ${Date.now() - t0} ms`);
    const [logged] = b.world.invocations();
    assert.equal(logged.exit_code, 'SIGTERM');
  });

  it('exits once the process it watches is gone', async () => {
    const b = await bench();
    b.world.setDelay(60_000);
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const proc = b.start([...loginArgs(join(b.dir, 'server'), ownerLogin), '+app_update', IDS.serverApp, '+quit'], {
        STEAMCMD_FAKE_WATCH_PID: String(owner.pid),
      });
      await waitFor(() => proc.stdout.some((l) => l.includes('reconfiguring')), { timeoutMs: 20_000, what: 'the update to start' });
      owner.kill('SIGKILL');
      await once(owner, 'exit');
      assert.equal(await withDeadline(proc.exited, 10_000, "the fake's exit after its owner"), 'SIGTERM');
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('refuses an unknown command as an error, and waits at its prompt without +quit until the input ends', async () => {
    const b = await bench();
    const unknown = await b.run(['+login', 'anonymous', '+app_status', IDS.serverApp, '+quit']);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.lines.at(-1), 'Unknown command "app_status"');
    const noState = await b.run(['+quit'], { STEAMCMD_FAKE_STATE: '' });
    assert.equal(noState.code, 1);
    assert.match(noState.stderr, /STEAMCMD_FAKE_STATE is not set/);

    // stdin is /dev/null for startProcess: the prompt sees the end of its input at once.
    const ended = await b.run(['+login', 'anonymous']);
    assert.equal(ended.code, 0);
    assert.ok(ended.lines.some((l) => l.startsWith('Steam>')));

    // With stdin open it waits; `quit` typed there ends it.
    const child = spawn(b.exe, ['+login', 'anonymous', '+app_info_print', IDS.serverApp], {
      env: { ...process.env, ...b.world.env() },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      await waitFor(() => out.includes('Steam>'), { timeoutMs: 20_000, what: 'the prompt' });
      assert.equal(child.exitCode, null, 'waits at the prompt');
      child.stdin.write('app_info_print 1000020\nquit\n');
      const [code] = (await withDeadline(once(child, 'exit'), 10_000, 'the exit after quit')) as [number];
      assert.equal(code, 0);
      assert.match(out, /AppID : 1000020, change number/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
