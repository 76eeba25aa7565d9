#!/usr/bin/env node
// bench/log-fanout: one game logging RATE lines a second to CLIENTS WebSocket clients; latency from the
// game writing a line to each client receiving it, and whether anything was lost. The baseline is a bare
// `ws` server broadcasting the same messages at the same rate. `npm run bench:log-fanout`.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createGameServer, killGroups, percentile, startService, statusIs, waitFor, wsConnect } from './lib.mjs';

const CLIENTS = Number(process.env.CLIENTS ?? 200);
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 10);
const TOTAL = RATE * SECONDS;

async function measure(url, isLine) {
  const latencies = [];
  const received = new Array(CLIENTS).fill(0);
  const sockets = [];
  for (let i = 0; i < CLIENTS; i++) {
    sockets.push(await wsConnect(url, (m) => {
      const at = isLine(m);
      if (at === null) return;
      received[i] += 1;
      latencies.push(Date.now() - at);
    }));
  }
  return { latencies, received, sockets };
}

function report(name, { latencies, received }) {
  const lost = received.reduce((sum, n) => sum + (TOTAL - n), 0);
  return `| ${name} | ${percentile(latencies, 50)} | ${percentile(latencies, 99)} | ${latencies.reduce((a, b) => Math.max(a, b), 0)} | ${lost} |`;
}

// Baseline: a bare ws broadcast in its own process.
const bare = fork(new URL('./log-fanout-baseline.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [{ port }] = await once(bare, 'message');
const baseline = await measure(`ws://127.0.0.1:${port}/`, (m) => (m.type === 'log' ? Number(/at (\d+)$/.exec(m.data.message)[1]) : null));
bare.send({ rate: RATE, seconds: SECONDS });
await waitFor(() => baseline.received.every((n) => n >= TOTAL), 'the baseline broadcast', (SECONDS + 30) * 1000).catch(() => {});
for (const s of baseline.sockets) s.terminate();
bare.kill();

const service = await startService({ GARRISON_LOG_LINES_PER_SECOND: String(RATE * 2) });
const pids = [];
try {
  const server = await createGameServer(service);
  pids.push((await service.api('POST', `/servers/${server.id}/start`)).body.data.pid);
  await statusIs(service, server.id, 'running');
  const url = `${service.url.replace('http', 'ws')}/ws?token=${service.token}&server_id=${server.id}`;
  const garrison = await measure(url, (m) => {
    if (m.type !== 'log') return null;
    const match = /^stream \d+\/\d+ at (\d+)$/.exec(m.data.message.replace(/^\d\d:\d\d:\d\d /, ''));
    return match ? Number(match[1]) : null;
  });
  await service.api('POST', `/servers/${server.id}/rcon/command`, { command: `testkit.stream ${RATE} ${SECONDS}` });
  await waitFor(() => garrison.received.every((n) => n >= TOTAL), 'every line on every client', (SECONDS + 30) * 1000).catch(() => {});
  for (const s of garrison.sockets) s.terminate();

  console.log(`${RATE} lines/s for ${SECONDS} s to ${CLIENTS} clients; milliseconds from writing a line to a client reading it:`);
  console.log('| side | p50 | p99 | max | lines lost (all clients) |\n|---|---|---|---|---|');
  console.log(report('garrison', garrison));
  console.log(report('bare ws broadcast', baseline));
  console.log(`\ngoal: garrison p99 under 20 ms: ${percentile(garrison.latencies, 99) < 20 ? 'met' : 'NOT met'}`);
} finally {
  killGroups(pids);
  await service.stop();
}
