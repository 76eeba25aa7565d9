#!/usr/bin/env node
// bench/mission-upload: upload a SIZE_MIB mission (default 500) with curl to the built service, against a plain
// file copy (`cp`) of the same file on the same disk in the same run; the service's peak memory during
// the upload is sampled from /proc. `npm run bench:mission-upload`.
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGameServer, startService, usage } from './lib.mjs';

const SIZE = Number(process.env.SIZE_MIB ?? 500) * 1024 * 1024;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const run = promisify(execFile);

const service = await startService();
const source = join(service.dataDir, 'source.Altis.pbo');
try {
  // The mission: SIZE bytes of varied content, written in 8 MiB blocks.
  const handle = await open(source, 'w');
  const block = Buffer.alloc(8 * 1024 * 1024);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31) & 0xff;
  for (let written = 0; written < SIZE; written += block.length) await handle.write(block, 0, Math.min(block.length, SIZE - written));
  await handle.close();

  // Baseline: cp to the same disk.
  const copyStarted = performance.now();
  await run('cp', [source, join(service.dataDir, 'copy.pbo')]);
  const copyMs = performance.now() - copyStarted;
  await rm(join(service.dataDir, 'copy.pbo'));

  const server = await createGameServer(service);
  const pid = service.child.pid;
  const sink = spawn(process.execPath, [new URL('./upload-sink.mjs', import.meta.url).pathname, service.dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sinkUrl = await new Promise((resolve) => createInterface({ input: sink.stdout }).once('line', resolve));
  const missions = join(service.dataDir, 'fake-gamea', 'mpmissions');

  // The client is curl, so that the client's own speed is not what is measured.
  const curl = (url, name, headers = []) => run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...headers, '-F', `file=@${source};filename=${name}`, url]);
  const garrisonUpload = async (round) => {
    const started = performance.now();
    const { stdout } = await curl(`${service.url}/api/servers/${server.id}/missions`, `bench_${round}.Altis.pbo`, ['-H', `authorization: Bearer ${service.token}`]);
    const ms = performance.now() - started;
    if (Number(stdout.trim()) !== 201) throw new Error(`upload answered ${stdout}`);
    await rm(join(missions, `bench_${round}.Altis.pbo`), { force: true });
    return ms;
  };
  // Transport baseline: the same curl upload to a bare Node server that only streams the body to disk.
  const bareUpload = async () => {
    const started = performance.now();
    await curl(sinkUrl, 'sink.Altis.pbo');
    const ms = performance.now() - started;
    await run('sh', ['-c', `rm -f ${service.dataDir}/sink-*.bin`]);
    return ms;
  };

  const before = (await usage(pid)).rssMb;
  let peak = before;
  const sampler = setInterval(() => usage(pid).then((u) => (peak = Math.max(peak, u.rssMb)), () => {}), 20);
  await garrisonUpload('warm');
  await bareUpload();
  const garrison = [];
  const bare = [];
  for (let round = 0; round < ROUNDS; round++) {
    garrison.push(await garrisonUpload(round));
    bare.push(await bareUpload());
  }
  clearInterval(sampler);
  sink.kill();

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const mib = SIZE / 1024 / 1024;
  const rate = (ms) => (mib / (ms / 1000)).toFixed(0);
  console.log(`${mib} MiB mission, ${ROUNDS} alternating rounds, medians:\n| side | seconds | MiB/s |\n|---|---|---|`);
  console.log(`| garrison upload (HTTP, multipart) | ${(median(garrison) / 1000).toFixed(2)} | ${rate(median(garrison))} |`);
  console.log(`| bare Node HTTP server streaming the body to disk (same curl) | ${(median(bare) / 1000).toFixed(2)} | ${rate(median(bare))} |`);
  console.log(`| cp on the same disk | ${(copyMs / 1000).toFixed(2)} | ${rate(copyMs)} |`);
  console.log(`\nservice RSS: ${before.toFixed(0)} MB before the first upload, ${peak.toFixed(0)} MB at the peak (+${(peak - before).toFixed(0)} MB)`);
  const ratio = median(bare) / median(garrison);
  console.log(`upload/bare transport: ${ratio.toFixed(2)} (goal ≥ 0.8): ${ratio >= 0.8 ? 'met' : 'NOT met'}; RSS growth under 64 MiB: ${peak - before < 64 ? 'met' : 'NOT met'}`);
  console.log(`each round, garrison/bare seconds: ${garrison.map((g, i) => `${(g / 1000).toFixed(2)}/${(bare[i] / 1000).toFixed(2)}`).join(' ')}`);
} finally {
  await service.stop();
  await rm(service.dataDir, { recursive: true, force: true });
}
