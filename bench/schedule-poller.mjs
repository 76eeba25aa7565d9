// The schedule poller's cost: the service's CPU with 1,000 schedules on 100 servers (none due in the
// window: the poll finds nothing to run, as almost always), against the same service before they
// exist, in the same run. Goal: the difference under 1% of a core.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WINDOW_S = Number(process.env.WINDOW_S ?? 30);
const TICKS = 100; // USER_HZ on Linux
const dataDir = await mkdtemp(join(tmpdir(), 'garrison-bench-poller-'));
const child = spawn(process.execPath, [join(ROOT, 'packages/server/dist/cli.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
  env: { ...process.env, GARRISON_ADMIN_PASSWORD: 'bench-password-1', GARRISON_RATE_LIMIT: '0', GARRISON_LOGIN_RATE_LIMIT: '0' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
const cpuTicks = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const measure = async () => {
  const start = cpuTicks();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
  return ((cpuTicks() - start) / TICKS / WINDOW_S) * 100; // % of one core
};

try {
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the service exited ${code}:\n${out}`)));
  });
  const api = async (method, path, body, token) => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const login = await api('POST', '/auth/login', { username: 'admin', password: 'bench-password-1' });
  const token = login.data?.access_token;
  if (!token) throw new Error(`login failed: ${JSON.stringify(login)}`);
  await new Promise((resolve) => setTimeout(resolve, 3000)); // past start-up
  const baseline = await measure();
  for (let i = 0; i < 100; i++) {
    const server = (
      await api('POST', '/servers', { name: `S${i}`, exe_path: '/opt/gamea/gameaserver_x64.exe', game_port: 20000 + i * 4 }, token)
    ).data;
    for (let j = 0; j < 10; j++) {
      await api(
        'POST',
        `/servers/${server.id}/schedules`,
        { name: `N${j}`, cron: `${j} 3 * * *`, timezone: 'Europe/Berlin', template: { kind: 'restart_with_warnings' } },
        token,
      );
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const loaded = await measure();
  console.log(
    `CPU over ${WINDOW_S} s: ${baseline.toFixed(2)}% of a core without schedules, ${loaded.toFixed(2)}% with 1,000 schedules ` +
      `on 100 servers: the poller costs ${(loaded - baseline).toFixed(2)}% (goal < 1%)`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
