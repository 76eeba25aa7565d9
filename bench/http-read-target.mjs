// One side of bench/http-read.mjs, in a process of its own: `garrison` (the built service on SQLite, with
// 50 servers and an admin token) or `koa` (a bare Koa app answering Garrison's exact body). Reports its
// URL, headers and body size over IPC, then serves until killed.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';

const SERVERS = 50;

async function garrison() {
  const { startServer } = await import('@garrison/server');
  const dataDir = await mkdtemp(join(tmpdir(), 'garrison-bench-'));
  const password = 'bench-password-1';
  // Defaults as a deployer runs them (info logs, to an ignored stdout), less the rate limit, which would
  // answer the load with 429s.
  const server = await startServer({ port: 0, dataDir, adminPassword: password, rateLimit: 0, loginRateLimit: 0 });
  const api = async (method, path, token, body) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const token = (await api('POST', '/auth/login', null, { username: 'admin', password })).data.access_token;
  for (let i = 0; i < SERVERS; i++) {
    await api('POST', '/servers', token, { name: `Bench ${i}`, exe_path: '/srv/gamea/gameaserver_x64.exe', game_port: 3000 + i * 10 });
  }
  const body = await (await fetch(`${server.url}/api/servers`, { headers: { authorization: `Bearer ${token}` } })).text();
  return { url: `${server.url}/api/servers`, headers: { authorization: `Bearer ${token}` }, body };
}

async function koa(body) {
  const { default: Koa } = await import('koa');
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
  const http = createServer(app.callback());
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${http.address().port}/api/servers`, headers: {}, body };
}

const which = process.argv[2];
const ready = which === 'garrison' ? await garrison() : await koa(process.argv[3]);
process.send({ url: ready.url, headers: ready.headers, body: ready.body });
process.on('SIGTERM', () => process.exit(0)); // lets --cpu-prof write its profile when profiling a side
