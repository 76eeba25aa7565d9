import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { makeApi } from './helpers.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

interface Started {
  child: ChildProcess;
  url: string;
  lines: string[];
  exited: Promise<number | null>;
}

/** Runs `garrison serve` as its own process and waits for its `listening on` line. */
function serve(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [...process.execArgv, CLI, 'serve', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /listening on (http:\/\/\S+?)"/.exec(line);
      if (match) resolve({ child, url: match[1]!, lines, exited });
    });
    exited.then((code) => reject(new Error(`exited ${code} before listening:\n${lines.join('\n')}`)));
  });
}

describe('garrison serve', () => {
  it('starts from flags, creates the first admin with a printed password, and stops on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    try {
      const run = await serve(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { GARRISON_RATE_LIMIT: '0' });
      const api = makeApi(run.url);
      assert.deepEqual((await api('GET', '/system/health')).body, { status: 'ok' });
      const line = run.lines.find((l) => l.includes('generated password'));
      assert.ok(line, 'the generated admin password is logged once');
      const password = /generated password: (\S+)/.exec(line!)![1]!;
      const login = await api('POST', '/auth/login', { body: { username: 'admin', password } });
      assert.equal(login.status, 200);
      assert.equal((await stat(join(dataDir, 'garrison.db'))).isFile(), true);
      assert.equal((await stat(join(dataDir, 'jwt-secret'))).mode & 0o777, 0o600);
      for (const l of run.lines) assert.doesNotMatch(l, new RegExp(login.body.data.access_token), 'no token in the logs');

      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);

      // A second start keeps the admin (no new password) and the secret (old tokens still work).
      const again = await serve(['--port', '0', '--data-dir', dataDir], {});
      assert.ok(!again.lines.some((l) => l.includes('generated password')));
      assert.equal((await makeApi(again.url)('GET', '/auth/me', { token: login.body.data.access_token })).status, 200);
      again.child.kill('SIGINT');
      assert.equal(await again.exited, 0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('reads its settings from the environment, with the admin password given', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'garrison-cli-'));
    try {
      const run = await serve([], {
        GARRISON_PORT: '0',
        GARRISON_DATA_DIR: dataDir,
        GARRISON_ADMIN_USERNAME: 'boss',
        GARRISON_ADMIN_PASSWORD: 'boss-password',
        GARRISON_TOKEN_TTL_SECONDS: '120',
      });
      assert.ok(!run.lines.some((l) => l.includes('boss-password')), 'a given password is never logged');
      const login = await makeApi(run.url)('POST', '/auth/login', { body: { username: 'boss', password: 'boss-password' } });
      assert.equal(login.status, 200);
      assert.equal(login.body.data.expires_in, 120);
      run.child.kill('SIGTERM');
      assert.equal(await run.exited, 0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('fails loudly on a bad flag', async () => {
    const child = spawn(process.execPath, [...process.execArgv, CLI, 'serve', '--bogus'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /bogus/);
  });
});
