#!/usr/bin/env node
// bench/webhooks: events into 20 webhook endpoints (a local receiver). Bans (of 50 servers) are added over the API at
// RATE a second for SECONDS (each one a `player.banned` event, written with its 20 deliveries in one
// transaction); the receiver notes when each delivery arrives. Prints the events/s the service took, the
// deliveries/s it sent, the p50/p99 delay from the event to its receipt, and the service's CPU.
// `npm run bench:webhooks` (builds first); RATE, SECONDS, ENDPOINTS change the run; BENCH_MYSQL=mysql://…
// runs it on MySQL/MariaDB instead of SQLite.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import knexFactory from 'knex';
import { percentile, startService, usage, waitFor } from './lib.mjs';

const RATE = Number(process.env.RATE ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 10);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 20);
const MYSQL = process.env.BENCH_MYSQL;

const delays = [];
let received = 0;
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received += 1;
    delays.push(Date.now() - Date.parse(JSON.parse(body).timestamp));
    res.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

let database = null;
if (MYSQL) {
  const name = `garrison_bench_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: MYSQL.replace(/\/$/, '') });
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  database = {
    url: `${MYSQL.replace(/\/$/, '')}/${name}`,
    drop: async () => (await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``), await admin.destroy()),
  };
}
const service = await startService({ GARRISON_WEBHOOK_ALLOW_PRIVATE: '1', ...(database ? { GARRISON_DATABASE_URL: database.url } : {}) });
try {
  // Bans of one server are written to its ban file one at a time: the events come from 50 servers.
  const servers = [];
  for (let i = 0; i < 50; i++)
    servers.push(
      (
        await service.api('POST', '/servers', {
          name: `bench ${i}`,
          exe_path: service.exePath,
          game_port: 21000 + i * 10,
          rcon_port: 21003 + i * 10,
        })
      ).body.data,
    );
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await service.api('POST', '/webhooks', { url: `${hookUrl}/${i}`, kind: 'generic', events: ['player.banned'] });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  const cpuBefore = await usage(service.child.pid);
  const started = Date.now();
  let sent = 0;
  let refused = 0;
  // Paced: each 10 ms, the bans due by then, at most 64 under way.
  const inFlight = new Set();
  while (Date.now() - started < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - started) / 1000) * RATE);
    while (sent < due && inFlight.size < 64) {
      sent += 1;
      const p = service
        .api('POST', `/servers/${servers[sent % servers.length].id}/bans`, {
          player_uid: randomBytes(16).toString('hex'),
          ban_type: 'GUID',
          reason: 'bench',
          duration_minutes: 0,
        })
        .then((r) => {
          if (r.status !== 201) refused += 1;
        });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inFlight);
  const tookMs = Date.now() - started;
  const expected = (sent - refused) * ENDPOINTS;
  await waitFor(() => received >= expected, `${expected} deliveries`, 600_000).catch(() => {});
  const doneMs = Date.now() - started;
  const cpuAfter = await usage(service.child.pid);
  console.log(`${ENDPOINTS} endpoints, ${database ? 'MariaDB' : 'SQLite'}; bans asked for at ${RATE}/s for ${SECONDS} s`);
  console.log(
    `events taken: ${sent - refused} in ${(tookMs / 1000).toFixed(1)} s ` +
      `= ${((sent - refused) / (tookMs / 1000)).toFixed(0)}/s (${refused} refused)`,
  );
  console.log(
    `deliveries received: ${received} of ${expected}, all in ${(doneMs / 1000).toFixed(1)} s ` +
      `= ${(received / (doneMs / 1000)).toFixed(0)}/s`,
  );
  console.log(
    `delay from event to receipt: p50 ${percentile(delays, 50)} ms, p99 ${percentile(delays, 99)} ms, max ${Math.max(...delays)} ms`,
  );
  console.log(
    `service CPU: ${(((cpuAfter.ticks - cpuBefore.ticks) / 100 / (doneMs / 1000)) * 100).toFixed(0)} % of one core over the ` +
      `run, resident ${cpuAfter.rssMb.toFixed(0)} MiB`,
  );
} finally {
  await service.stop();
  receiver.close();
  await database?.drop();
}
