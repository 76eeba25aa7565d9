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
  const before = (await usage(pid)).rssMb;
  let peak = before;
  const sampler = setInterval(() => usage(pid).then((u) => (peak = Math.max(peak, u.rssMb)), () => {}), 20);

  // The client is curl, so that the client's own speed is not what is measured.
  const uploadStarted = performance.now();
  const { stdout } = await run('curl', [
    '-s', '-o', '/dev/null', '-w', '%{http_code}', '-H', `authorization: Bearer ${service.token}`,
    '-F', `file=@${source};filename=bench_${Date.now()}.Altis.pbo`, `${service.url}/api/servers/${server.id}/missions`,
  ]);
  const status = Number(stdout.trim());
  const uploadMs = performance.now() - uploadStarted;
  clearInterval(sampler);
  if (status !== 201) throw new Error(`upload answered ${status}`);

  // Transport baseline: the same curl upload to a bare Node server that only streams the body to disk.
  const sink = spawn(process.execPath, [new URL('./upload-sink.mjs', import.meta.url).pathname, service.dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sinkUrl = await new Promise((resolve) => createInterface({ input: sink.stdout }).once('line', resolve));
  const sinkStarted = performance.now();
  await run('curl', ['-s', '-o', '/dev/null', '-F', `file=@${source};filename=sink.Altis.pbo`, sinkUrl]);
  const sinkMs = performance.now() - sinkStarted;
  sink.kill();

  const mib = SIZE / 1024 / 1024;
  const rate = (ms) => (mib / (ms / 1000)).toFixed(0);
  console.log(`${mib} MiB mission:\n| side | seconds | MiB/s |\n|---|---|---|`);
  console.log(`| garrison upload (HTTP, multipart) | ${(uploadMs / 1000).toFixed(2)} | ${rate(uploadMs)} |`);
  console.log(`| cp on the same disk | ${(copyMs / 1000).toFixed(2)} | ${rate(copyMs)} |`);
  console.log(`| bare Node HTTP server streaming the body to disk (same curl) | ${(sinkMs / 1000).toFixed(2)} | ${rate(sinkMs)} |`);
  console.log(`\nservice RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at the peak (+${(peak - before).toFixed(0)} MB)`);
  const ratio = copyMs / uploadMs;
  console.log(`throughput ratio upload/copy: ${ratio.toFixed(2)} (goal ≥ 0.5): ${ratio >= 0.5 ? 'met' : 'NOT met'}; memory growth under 64 MiB: ${peak - before < 64 ? 'met' : 'NOT met'}`);
  console.log(`upload/bare HTTP transport: ${(sinkMs / uploadMs).toFixed(2)}; bare HTTP transport/copy: ${(copyMs / sinkMs).toFixed(2)}`);
} finally {
  await service.stop();
  await rm(service.dataDir, { recursive: true, force: true });
}
