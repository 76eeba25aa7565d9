import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installFakeGameaTemp, startProcess, waitFor, withDeadline, type TestProcess } from '@garrison/testkit';
import { apiClient } from '@garrison/testkit/harness';
import { startHarness, type Harness } from './helpers.js';
import { CLI, cliEnv, listeningUrl } from './cli-run.js';
import { FAST_SUPERVISION, createGameServer, isAlive, killGames, statusBecomes, type FakeInstall } from './games.js';

const SLOW = { timeout: 240_000 };
/** Low enough to exhaust quickly, high enough for the service to start. */
const FILE_LIMIT = 200;
const PROC = fileURLToPath(new URL('../src/processes/proc.ts', import.meta.url));

/** Opens connections to `url` until the service closes new ones at once (it is out of descriptors, or at its budget). */
async function flood(url: string, max: number): Promise<Socket[]> {
  const { hostname, port } = new URL(url);
  const sockets: Socket[] = [];
  for (let i = 0; i < max; i += 1) {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    sockets.push(socket);
    await withDeadline(
      new Promise<void>((resolve) => socket.once('connect', resolve).once('close', () => resolve())),
      10_000,
      'a connection',
    );
    // A socket the service dropped at once (EMFILE, or its connection budget) ends within a moment; a taken one stays.
    const dropped = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 50);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (dropped) return sockets;
  }
  return sockets;
}

describe('a connection flood never orphans a running game', () => {
  const harnesses: Harness[] = [];
  const services: TestProcess[] = [];
  const pids: number[] = [];
  let fake: FakeInstall | undefined;
  after(async () => {
    for (const s of services) await s.kill();
    for (const h of harnesses) {
      await killGames(h, pids);
      await h.close().catch(() => {});
    }
    await fake?.remove();
  });

  it('keeps an adopted game running, and stoppable, while the service runs out of connections at its open-file limit', SLOW, async () => {
    fake = await installFakeGameaTemp();
    const first = await startHarness({ ...FAST_SUPERVISION });
    harnesses.push(first);
    const s = await createGameServer(first, fake);
    const { pid } = (await first.api('POST', `/servers/${s.id}/start`, { token: first.adminToken })).body.data;
    pids.push(pid);
    await statusBecomes(first, s.id, 'running');
    await first.server.close(); // the game runs on, to be adopted

    const service = startProcess(
      'prlimit',
      [
        `--nofile=${FILE_LIMIT}:${FILE_LIMIT}`,
        process.execPath,
        ...process.execArgv,
        CLI,
        'serve',
        '--port',
        '0',
        '--data-dir',
        first.dataDir,
        ...(first.databaseUrl ? ['--database', first.databaseUrl] : []),
      ],
      {
        env: cliEnv({ GARRISON_MAX_CONNECTIONS_PER_ADDRESS: '0', GARRISON_STOP_TIMEOUT_MS: '3000', GARRISON_LOG_FORMAT: 'json' }),
      },
    );
    services.push(service);
    const url = await listeningUrl(service, 'the service under a low file limit to listen', 90_000);
    const api = apiClient(url);
    const adopted = (await api('GET', `/servers/${s.id}`, { token: first.adminToken })).body.data;
    assert.equal(adopted.status, 'running');
    assert.equal(adopted.pid, pid);

    const sockets = await flood(url, FILE_LIMIT * 2);
    try {
      // Held past many looks at the adopted game (every 200 ms): before, one failed read of /proc marked it crashed.
      const until = Date.now() + 3000;
      await waitFor(() => Date.now() >= until || service.stdout.some((l) => l.includes('game process exited unexpectedly')), {
        timeoutMs: 10_000,
        what: 'the flood to be held',
      });
      assert.ok(!service.stdout.some((l) => l.includes('game process exited unexpectedly')), 'the game was taken for gone');
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    assert.ok(isAlive(pid), 'the game runs');
    const after = await waitFor(async () => (await api('GET', `/servers/${s.id}`, { token: first.adminToken })).body.data, {
      timeoutMs: 20_000,
      what: 'the service to answer again',
    });
    assert.equal(after.status, 'running', JSON.stringify(after));
    assert.equal(after.pid, pid);
    const killed = await api('POST', `/servers/${s.id}/kill`, { token: first.adminToken });
    assert.equal(killed.status, 200, JSON.stringify(killed.body));
    await waitFor(() => !isAlive(pid), { timeoutMs: 15_000, what: 'the game to be gone' });
    assert.ok(
      service.stdout.some((l) => l.includes(`"open_files_limit":${FILE_LIMIT}`)),
      'it logs its open-file limit',
    );
  });

  it('tells a process it cannot look at for want of descriptors as unknown, never gone', SLOW, async () => {
    // A process of its own, under a low limit: it uses its descriptors up, then looks at a running pid and a gone one.
    const lookAtRunning = 'liveness(running, started, (w) => why.push(w))';
    const script = `
      import { openSync } from 'node:fs';
      const proc = await import(${JSON.stringify(PROC)});
      const { processStartTime } = proc;
      // Before there was a third answer, the look was a yes or no: the same question asked of it.
      const liveness = proc.liveness ?? ((pid, startTime) => (proc.isSameProcess(pid, startTime) ? 'running' : 'gone'));
      const running = Number(process.argv.at(-2)), gone = Number(process.argv.at(-1));
      const started = processStartTime(running);
      const held = [];
      try { for (;;) held.push(openSync('/dev/null', 'r')); } catch (err) { if (err.code !== 'EMFILE') throw err; }
      const why = [];
      const result = { held: held.length, started, running: ${lookAtRunning}, gone: liveness(gone, null), why };
      process.stdout.write(JSON.stringify(result));
    `;
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    const ended = spawn('true', [], { stdio: 'ignore' });
    await withDeadline(new Promise((resolve) => ended.once('exit', resolve)), 10_000, 'true to exit');
    try {
      const child = spawn(
        'prlimit',
        [
          '--nofile=64:64',
          process.execPath,
          ...process.execArgv,
          '--input-type=module',
          '-e',
          script,
          String(sleeper.pid),
          String(ended.pid),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const code = await withDeadline(new Promise((resolve) => child.once('exit', resolve)), 60_000, 'the look under EMFILE');
      assert.equal(code, 0, err);
      const result = JSON.parse(out);
      assert.ok(result.held > 0 && result.started, out);
      assert.equal(result.running, 'unknown', out);
      assert.match(result.why[0] ?? '', /EMFILE/);
      assert.equal(result.gone, 'gone', 'a pid the kernel says is gone is gone, descriptors or not');
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
