#!/usr/bin/env node
// bench/metrics-overhead: what the Prometheus middleware costs. Two services, one with metrics on
// (GARRISON_METRICS_TOKEN) and one without, each with 50 servers; authenticated GET /api/servers under 50
// connections, in alternating rounds, one service loaded at a time. Goal: metrics on costs under 5 % of
// req/s. `npm run bench:metrics-overhead` (builds first); ROUNDS and SECONDS change the run.
import autocannon from 'autocannon';
import { startService } from './lib.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SECONDS = Number(process.env.SECONDS ?? 8);
const CONNECTIONS = 50;
const TOKEN = 'bench-metrics-token-0123456789';

async function prepared(env) {
  const service = await startService(env);
  for (let i = 0; i < 50; i++) {
    const res = await service.api('POST', '/servers', {
      name: `bench ${i}`,
      exe_path: service.exePath,
      game_port: 20000 + i * 10,
      rcon_port: 20003 + i * 10,
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  return service;
}

const load = (service, seconds = SECONDS) =>
  autocannon({
    url: `${service.url}/api/servers?limit=50`,
    headers: { authorization: `Bearer ${service.token}` },
    connections: CONNECTIONS,
    duration: seconds,
  });

const off = await prepared({});
const on = await prepared({ GARRISON_METRICS_TOKEN: TOKEN });
try {
  await load(off, 2);
  await load(on, 2);
  const results = { off: [], on: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, service] of round % 2
      ? [
          ['off', off],
          ['on', on],
        ]
      : [
          ['on', on],
          ['off', off],
        ]) {
      const r = await load(service);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} time-outs`);
      results[name].push(r.requests.average);
      console.log(
        `round ${round} metrics ${name.padEnd(3)} ${r.requests.average.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${String(r.latency.p50).padStart(3)} ms  p99 ${String(r.latency.p99).padStart(3)} ms`,
      );
    }
  }
  const scrape = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const series = (await scrape.text()).match(/^garrison_http_request_duration_seconds_count\{route="\/api\/servers",method="GET".*$/m)?.[0];
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cost = 1 - median(results.on) / median(results.off);
  console.log(
    `median req/s: metrics off ${median(results.off).toFixed(0)}, on ${median(results.on).toFixed(0)}; the middleware ` +
      `costs ${(cost * 100).toFixed(1)} % (goal: under 5 %: ${cost < 0.05 ? 'met' : 'NOT met'})`,
  );
  console.log(`counted by the service with metrics on: ${series}`);
} finally {
  await Promise.all([off.stop(), on.stop()]);
}
