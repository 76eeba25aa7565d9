import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAll, startProcess, waitFor, withDeadline, type TestProcess } from '@garrison/testkit';
import { apiClient } from '@garrison/testkit/harness';
import { cliEnv, listeningUrl, serveProcess } from './cli-run.js';
import { wsClient } from './games.js';

const SLOW = { timeout: 180_000 };
const ROOT = new URL('../../../', import.meta.url).pathname;
const PASSWORD = 'signals-password-1';

/** A request the service has begun to read and not finished: its body waits for `finish()`. */
async function requestInFlight(url: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ username: 'admin', password: PASSWORD });
  const socket: Socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.setEncoding('latin1').on('data', (d: string) => (answer += d));
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST /api/auth/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: async () => {
      socket.write(body.slice(10));
      await waitFor(() => /\r\n\r\n/.test(answer) && answer, { timeoutMs: 30_000, what: 'the answer to the request in flight' });
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
    },
    ended: () => withDeadline(ended, 30_000, 'the connection to end'),
  };
}

const logged = (p: TestProcess, text: string) => p.stdout.some((l) => l.includes(text));

/** Signals one at a time, each once the service has taken the one before (signals sent at once may merge into one). */
async function signal(p: TestProcess, name: NodeJS.Signals, count: number): Promise<void> {
  const marks = ['"msg":"shutting down"', 'already shutting down'];
  for (let i = 0; i < count; i += 1) {
    p.child.kill(name);
    const mark = marks[i];
    if (mark) await waitFor(() => logged(p, mark), { timeoutMs: 30_000, what: `the service to take signal ${i + 1}` });
  }
}

describe('signals during a graceful stop', () => {
  const dirs: string[] = [];
  after(async () => {
    await killAll();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const service = async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-signals-'));
    dirs.push(dataDir);
    const run = await serveProcess(['--data-dir', dataDir], { GARRISON_ADMIN_PASSWORD: PASSWORD });
    const token = (await apiClient(run.url)('POST', '/auth/login', { body: { username: 'admin', password: PASSWORD } })).body.data
      .access_token as string;
    return { ...run, ws: await wsClient(run.url, `/ws?token=${token}`) };
  };

  it('takes a repeated signal (a terminal and npm both pass on Ctrl-C) without cutting the stop short', SLOW, async () => {
    const { url, process: garrison, ws } = await service();
    const held = await requestInFlight(url);
    await signal(garrison, 'SIGINT', 2);
    assert.equal((await ws.closing).code, 1001, 'the WebSocket closed as going away, not dropped');
    assert.equal(await held.finish(), 200, 'the request in flight is answered');
    assert.equal(await withDeadline(garrison.exited, 30_000, 'the service to stop'), 0);
    assert.ok(logged(garrison, 'already shutting down'), garrison.stdout.join('\n'));
    assert.match(garrison.stdout.filter(Boolean).at(-1)!, /"msg":"stopped"/);
  });

  it('forces the exit at a third signal, and says so', SLOW, async () => {
    const { url, process: garrison } = await service();
    const held = await requestInFlight(url);
    await signal(garrison, 'SIGTERM', 3);
    assert.equal(await withDeadline(garrison.exited, 30_000, 'the forced exit'), 1);
    await held.ended();
    assert.ok(logged(garrison, 'shutdown forced by a third signal'), garrison.stdout.join('\n'));
    assert.ok(!logged(garrison, '"msg":"stopped"'));
  });

  it('stops npm start cleanly on Ctrl-C: the terminal signals the whole group', SLOW, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-signals-'));
    dirs.push(dataDir);
    const npm = startProcess('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: cliEnv({ GARRISON_PORT: '0', GARRISON_DATA_DIR: dataDir, GARRISON_ADMIN_PASSWORD: PASSWORD }),
      detached: true,
    });
    try {
      const url = await listeningUrl(npm, 'npm start to listen', 120_000);
      const token = (await apiClient(url)('POST', '/auth/login', { body: { username: 'admin', password: PASSWORD } })).body.data
        .access_token as string;
      const ws = await wsClient(url, `/ws?token=${token}`);
      const held = await requestInFlight(url);
      process.kill(-npm.pid, 'SIGINT'); // what a terminal does on Ctrl-C: npm passes it on too
      assert.equal((await ws.closing).code, 1001);
      assert.equal(await held.finish(), 200, 'the request in flight is answered');
      await withDeadline(npm.exited, 30_000, 'npm to exit');
      assert.ok(logged(npm, '"msg":"stopped"'), npm.stdout.join('\n'));
      assert.ok(!logged(npm, 'shutdown forced'));
    } finally {
      await npm.kill();
    }
  });
});
