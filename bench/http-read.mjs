#!/usr/bin/env node
// bench/http-read: authenticated GET /api/servers (50 servers) under 50 connections, against a bare Koa
// app answering the same body, in alternating rounds in one run. Prints req/s, p50 and p99 of each and
// the ratios. Run with `npm run bench:http-read` (builds first); ROUNDS and SECONDS change the run.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 8);
const CONNECTIONS = 50;
const target = new URL('./http-read-target.mjs', import.meta.url).pathname;

async function start(args) {
  const child = fork(target, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const [ready] = await once(child, 'message');
  return { child, ...ready };
}

function load(side) {
  return autocannon({ url: side.url, headers: side.headers, connections: CONNECTIONS, duration: SECONDS });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const garrison = await start(['garrison']);
const koa = await start(['koa', garrison.body]);
try {
  const results = { garrison: [], koa: [] };
  // Both warm up before anything is counted.
  await Promise.all([autocannon({ url: garrison.url, headers: garrison.headers, connections: 10, duration: 2 })]);
  await autocannon({ url: koa.url, connections: 10, duration: 2 });
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, side] of round % 2
      ? [
          ['garrison', garrison],
          ['koa', koa],
        ]
      : [
          ['koa', koa],
          ['garrison', garrison],
        ]) {
      const r = await load(side);
      const bad = r.non2xx + r.errors + r.timeouts;
      if (bad) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} time-outs`);
      results[name].push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
      console.log(
        `round ${round} ${name.padEnd(8)} ${r.requests.average.toFixed(0).padStart(6)} req/s  ` +
          `p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(4)} ms`,
      );
    }
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([name, rs]) => [
      name,
      { rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)) },
    ]),
  );
  console.log(
    `\nbody ${Buffer.byteLength(garrison.body)} bytes, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s each, medians:`,
  );
  console.log('| side | req/s | p50 ms | p99 ms |\n|---|---|---|---|');
  for (const [name, s] of Object.entries(summary)) console.log(`| ${name} | ${s.rps.toFixed(0)} | ${s.p50} | ${s.p99} |`);
  const ratio = summary.garrison.rps / summary.koa.rps;
  const p99x = summary.garrison.p99 / summary.koa.p99;
  console.log(`\nreq/s ratio garrison/koa: ${ratio.toFixed(2)} (goal ≥ 0.50); p99 garrison/koa: ${p99x.toFixed(2)}× (goal ≤ 3×)`);
} finally {
  garrison.child.kill();
  koa.child.kill();
}
