#!/usr/bin/env node
// bench/log-fanout: one game logging RATE lines a second to CLIENTS WebSocket clients; latency from the
// game writing a line to each client receiving it, and whether anything was lost. The baseline is a bare
// `ws` server broadcasting the same messages at the same rate. `npm run bench:log-fanout`.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createGameServer, killGroups, percentile, preciseNow, startService, statusIs, waitFor, wsConnect } from './lib.mjs';

const CLIENTS = Number(process.env.CLIENTS ?? 200);
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 10);
const TOTAL = RATE * SECONDS;

/** p99 per half second of the stream: where the slow deliveries are (a start-up spike, a pause). */
function timeline(samples) {
  const start = samples.reduce((m, [at]) => Math.min(m, at), Infinity);
  const halves = new Map();
  for (const [at, ms] of samples) {
    const k = Math.floor((at - start) / 500);
    if (!halves.has(k)) halves.set(k, []);
    halves.get(k).push(ms);
  }
  return [...halves]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k / 2}s:${percentile(v, 99)}`)
    .join(' ');
}

async function measure(url, isLine) {
  const samples = [];
  const latencies = [];
  const received = new Array(CLIENTS).fill(0);
  const sockets = [];
  for (let i = 0; i < CLIENTS; i++) {
    sockets.push(
      await wsConnect(url, (m) => {
        const at = isLine(m);
        if (at === null) return;
        received[i] += 1;
        const ms = Math.round((preciseNow() - at) * 10) / 10;
        latencies.push(ms);
        samples.push([at, ms]);
      }),
    );
  }
  return { latencies, received, sockets, samples };
}

function report(name, { latencies, received }) {
  const lost = received.reduce((sum, n) => sum + (TOTAL - n), 0);
  return (
    `| ${name} | ${percentile(latencies, 50)} | ${percentile(latencies, 99)} | ${latencies.reduce((a, b) => Math.max(a, b), 0)} ` +
    `| ${lost} |`
  );
}

/** The game's `.rpt` files under `dir` (the service's data dir holds the server's profile folder). */
async function rptFiles(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.rpt')) found.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return found;
}

/** Two streams on the same connections: the first after the process started (cold), then another (warm). */
async function twoStreams(url, isLine, stream, afterEach = async () => {}) {
  const counted = await measure(url, isLine);
  const rounds = [];
  for (const _round of ['cold', 'warm']) {
    counted.latencies.length = 0;
    counted.samples.length = 0;
    counted.received.fill(0);
    await stream();
    await waitFor(() => counted.received.every((n) => n >= TOTAL), 'every line on every client', (SECONDS + 30) * 1000).catch(() => {});
    rounds.push({
      latencies: [...counted.latencies],
      received: [...counted.received],
      samples: [...counted.samples],
      ...(await afterEach()),
    });
  }
  for (const s of counted.sockets) s.terminate();
  return rounds;
}

// Baseline: a bare ws broadcast in its own process.
const bare = fork(new URL('./log-fanout-baseline.mjs', import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const [{ port }] = await once(bare, 'message');
const baseline = await twoStreams(
  `ws://127.0.0.1:${port}/`,
  (m) => (m.type === 'log' ? Number(/at (\d+(?:\.\d+)?)$/.exec(m.data.message)[1]) : null),
  async () => {
    bare.send({ rate: RATE, seconds: SECONDS });
  },
);
bare.kill();

const service = await startService({ GARRISON_LOG_LINES_PER_SECOND: String(RATE * 2) });
const pids = [];
try {
  const server = await createGameServer(service);
  pids.push((await service.api('POST', `/servers/${server.id}/start`)).body.data.pid);
  await statusIs(service, server.id, 'running');
  const url = `${service.url.replace('http', 'ws')}/ws?token=${service.token}&server_id=${server.id}`;
  const isLine = (m) => {
    if (m.type !== 'log') return null;
    const match = /^stream \d+\/\d+ at (\d+(?:\.\d+)?)$/.exec(m.data.message.replace(/^\d\d:\d\d:\d\d /, ''));
    return match ? Number(match[1]) : null;
  };
  // The file's own latency, read by a bare follower in a process of its own: what the game and the file
  // system add before Garrison reads a line (the bare broadcast has neither).
  const [rpt] = await rptFiles(service.dataDir);
  const probe = fork(new URL('./file-tail-probe.mjs', import.meta.url).pathname, [rpt], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(probe, 'message');
  const garrison = await twoStreams(
    url,
    isLine,
    async () => {
      await service.api('POST', `/servers/${server.id}/rcon/command`, { command: `testkit.stream ${RATE} ${SECONDS}` });
    },
    async () => {
      probe.send('take');
      const [fileSamples] = await once(probe, 'message');
      return { fileSamples };
    },
  );
  probe.send('stop');

  console.log(`${RATE} lines/s for ${SECONDS} s to ${CLIENTS} clients; milliseconds from writing a line to a client reading it:`);
  console.log('| side | p50 | p99 | max | lines lost (all clients) |\n|---|---|---|---|---|');
  console.log(report('garrison, first stream after start', garrison[0]));
  console.log(report('bare ws broadcast, first stream', baseline[0]));
  console.log(report('garrison, second stream', garrison[1]));
  console.log(report('bare ws broadcast, second stream', baseline[1]));
  for (const [i, name] of ['first', 'second'].entries()) {
    console.log(`\np99 per half second, ${name} stream, garrison: ${timeline(garrison[i].samples)}`);
    console.log(`p99 per half second, ${name} stream, bare ws:  ${timeline(baseline[i].samples)}`);
    const file = garrison[i].fileSamples;
    console.log(
      `p99 per half second, ${name} stream, the .rpt read by a bare follower (p99 ${percentile(
        file.map(([, ms]) => ms),
        99,
      )}): ${timeline(file)}`,
    );
  }
  for (const [i, name] of ['first stream after start', 'second stream'].entries()) {
    const ratio = percentile(garrison[i].latencies, 99) / Math.max(1, percentile(baseline[i].latencies, 99));
    console.log(
      `${name}: garrison p99 ${ratio.toFixed(1)}x the bare broadcast's (goal within 2x: ${ratio <= 2 ? 'met' : 'NOT met'}); ` +
        `nothing lost: ${garrison[i].received.every((n) => n === TOTAL) ? 'yes' : 'NO'}`,
    );
  }
} finally {
  killGroups(pids);
  await service.stop();
}
