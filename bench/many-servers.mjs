#!/usr/bin/env node
// bench/many-servers: the service's own CPU and memory while it supervises SERVERS running fake games
// (log following, metrics, player polls), next to the same service idle in the same run.
// `npm run bench:many-servers`; SERVERS and SECONDS change the run.
import { setTimeout as delay } from 'node:timers/promises';
import { createGameServer, killGroups, startService, usage, waitFor } from './lib.mjs';

const SERVERS = Number(process.env.SERVERS ?? 100);
const SECONDS = Number(process.env.SECONDS ?? 30);

async function measure(pid) {
  const before = await usage(pid);
  await delay(SECONDS * 1000);
  const after = await usage(pid);
  return { cpuPercent: ((after.ticks - before.ticks) / 100 / SECONDS) * 100, rssMb: after.rssMb };
}

const service = await startService();
const pids = [];
try {
  const servers = [];
  for (let i = 0; i < SERVERS; i++) servers.push(await createGameServer(service, `bench ${i}`));
  const idle = await measure(service.child.pid);

  for (const s of servers) pids.push((await service.api('POST', `/servers/${s.id}/start`)).body.data.pid);
  await waitFor(
    async () => {
      const list = (await service.api('GET', `/servers?limit=500`)).body.data;
      return list.filter((s) => s.status === 'running').length === SERVERS;
    },
    `${SERVERS} servers running`,
    600_000,
  );
  await delay(15_000); // past the first samples and polls, into the steady state
  const busy = await measure(service.child.pid);

  console.log(`the service process alone, over ${SECONDS} s:\n| state | CPU (% of one core) | RSS MB |\n|---|---|---|`);
  console.log(`| idle, ${SERVERS} servers stopped | ${idle.cpuPercent.toFixed(1)} | ${idle.rssMb.toFixed(0)} |`);
  console.log(`| ${SERVERS} servers running | ${busy.cpuPercent.toFixed(1)} | ${busy.rssMb.toFixed(0)} |`);
  console.log(`\ngoal: under 10 % of one core and under 300 MB RSS: ${busy.cpuPercent < 10 && busy.rssMb < 300 ? 'met' : 'NOT met'}`);
} finally {
  killGroups(pids);
  await service.stop();
}
