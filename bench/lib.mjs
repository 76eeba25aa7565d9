// Shared by the benchmarks: the built service as a process of its own, the fake game, WebSocket clients.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import { installFakeGamea } from '@garrison/testkit';

const CLI = new URL('../packages/server/dist/cli.js', import.meta.url).pathname;
const PASSWORD = 'bench-password-1';

/** `garrison serve` (built) on a free port with a fresh data dir; resolves once it listens. */
export async function startService(env = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'garrison-bench-'));
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), CLI, 'serve', '--port', '0', '--data-dir', dataDir],
    {
      env: {
        ...process.env,
        GARRISON_ADMIN_PASSWORD: PASSWORD,
        GARRISON_RATE_LIMIT: '0',
        GARRISON_LOGIN_RATE_LIMIT: '0',
        GAMEA_FAKE_WATCH_PID: String(process.pid),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /listening on (http:\/\/\S+?)"/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`garrison serve exited ${code}`)));
  });
  const api = async (method, path, body, token) => {
    const res = await fetch(`${url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const token = (await api('POST', '/auth/login', { username: 'admin', password: PASSWORD })).body.data.access_token;
  const fake = await installFakeGamea(join(dataDir, 'fake-gamea'));
  return {
    url,
    child,
    dataDir,
    token,
    api: (method, path, body) => api(method, path, body, token),
    exePath: fake.executables[0],
    stop: () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM')))),
  };
}

let nextPort = 12000;
/** A server of the fake game on ports nothing else on this machine uses (below the ephemeral range). */
export async function createGameServer(service, name = 'bench') {
  nextPort += 10;
  const res = await service.api('POST', '/servers', { name, exe_path: service.exePath, game_port: nextPort, rcon_port: nextPort + 3 });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

export async function waitFor(probe, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const statusIs = (service, id, status) =>
  waitFor(async () => {
    const r = (await service.api('GET', `/servers/${id}`)).body.data;
    return r.status === status && r;
  }, `server ${id} ${status}`);

export function wsConnect(url, onMessage) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('message', (data) => onMessage(JSON.parse(String(data))));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Wall-clock milliseconds to the microsecond, comparable across processes on one host (the stream's stamps). */
export const preciseNow = () => performance.timeOrigin + performance.now();

export function percentile(xs, p) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU ticks (1/100 s) and resident memory of a process, from /proc. */
export async function usage(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return { ticks: Number(fields[11]) + Number(fields[12]), rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024 };
}

export function killGroups(pids) {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}
