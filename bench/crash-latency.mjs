#!/usr/bin/env node
// bench/crash-latency: from a game process's death to `server_status` `crashed` on a WebSocket client,
// against a bare Node process reporting its child's exit, in alternating rounds. `npm run bench:crash-latency`.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createGameServer, killGroups, percentile, startService, statusIs, wsConnect } from './lib.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 15);

// The baseline: a Node process that spawns a child and reports its exit to us.
const reporter = fork(new URL('./crash-latency-reporter.mjs', import.meta.url).pathname, [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const service = await startService();
const pids = [];
try {
  const server = await createGameServer(service);
  const garrison = [];
  const bare = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Garrison
    const { pid } = (await service.api('POST', `/servers/${server.id}/start`)).body.data;
    pids.push(pid);
    await statusIs(service, server.id, 'running');
    let resolveCrash;
    const crashed = new Promise((r) => (resolveCrash = r));
    const ws = await wsConnect(`${service.url.replace('http', 'ws')}/ws?token=${service.token}&server_id=${server.id}`, (m) => {
      if (m.type === 'server_status' && m.data.status === 'crashed') resolveCrash(performance.now());
    });
    const t0 = performance.now();
    process.kill(pid, 'SIGKILL');
    garrison.push((await crashed) - t0);
    ws.close();

    // Baseline
    reporter.send('spawn');
    const [{ pid: childPid }] = await once(reporter, 'message');
    const t1 = performance.now();
    process.kill(childPid, 'SIGKILL');
    await once(reporter, 'message');
    bare.push(performance.now() - t1);
  }
  const row = (name, xs) =>
    `| ${name} | ${percentile(xs, 50).toFixed(1)} | ${percentile(xs, 90).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`;
  console.log(
    `${ROUNDS} crashes each; milliseconds from SIGKILL of the game to the report:\n| side | median | p90 | max |\n|---|---|---|---|`,
  );
  console.log(row('garrison (WebSocket `crashed`)', garrison));
  console.log(row('bare Node (child `exit` event)', bare));
  console.log(`\ngoal: garrison median under 100 ms: ${percentile(garrison, 50) < 100 ? 'met' : 'NOT met'}`);
} finally {
  killGroups(pids);
  reporter.kill();
  await service.stop();
}
