#!/usr/bin/env node
// bench/mission-upload: upload a SIZE_MIB mission (default 500) with curl to the built service, against a bare
// Node HTTP server streaming the same upload to disk and a plain file copy (`cp`), on the same disk in the
// same run; the service's peak memory during the uploads is sampled from /proc. `npm run bench:mission-upload`.
// With `--parsers`, a second service whose multipart parser is formidable (bench/formidable-upload.mjs,
// swapped in by bench/parser-swap.mjs) is measured in the same rounds; formidable must be resolvable from
// here (`npm i --no-save formidable@3`) or from the folder FORMIDABLE_FROM names.
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGameServer, startService, usage } from './lib.mjs';

const SIZE = Number(process.env.SIZE_MIB ?? 500) * 1024 * 1024;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const run = promisify(execFile);

const formidablePath = process.argv.includes('--parsers') ? resolveFormidable() : null;
const service = await startService();
const withFormidable = (env = {}) =>
  startService({
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${new URL('./parser-swap.mjs', import.meta.url).href}`,
    GARRISON_BENCH_FORMIDABLE: formidablePath,
    ...env,
  });
const formidableService = formidablePath ? await withFormidable() : null;
// FORMIDABLE_EARLY_ACK=1: a third service, whose writer acknowledges formidable's chunks before they are on disk.
const earlyAckService =
  formidablePath && process.env.FORMIDABLE_EARLY_ACK ? await withFormidable({ GARRISON_BENCH_FORMIDABLE_ACK: 'early' }) : null;
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

  const pids = [service, formidableService, earlyAckService].filter(Boolean).map((s) => s.child.pid);
  const sink = spawn(process.execPath, [new URL('./upload-sink.mjs', import.meta.url).pathname, service.dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const sinkUrl = await new Promise((resolve) => createInterface({ input: sink.stdout }).once('line', resolve));

  // The client is curl, so that the client's own speed is not what is measured.
  const curl = (url, name, headers = []) =>
    run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', ...headers, '-F', `file=@${source};filename=${name}`, url]);
  const uploader = async (target) => {
    const server = await createGameServer(target);
    const missions = join(target.dataDir, 'fake-gamea', 'mpmissions');
    return async (round) => {
      const started = performance.now();
      const { stdout } = await curl(`${target.url}/api/servers/${server.id}/missions`, `bench_${round}.Altis.pbo`, [
        '-H',
        `authorization: Bearer ${target.token}`,
      ]);
      const ms = performance.now() - started;
      if (Number(stdout.trim()) !== 201) throw new Error(`upload answered ${stdout}`);
      await rm(join(missions, `bench_${round}.Altis.pbo`), { force: true });
      return ms;
    };
  };
  // Transport baseline: the same curl upload to a bare Node server that only streams the body to disk.
  const bareUpload = async () => {
    const started = performance.now();
    await curl(sinkUrl, 'sink.Altis.pbo');
    const ms = performance.now() - started;
    await run('sh', ['-c', `rm -f ${service.dataDir}/sink-*.bin`]);
    return ms;
  };
  const sides = [
    { name: 'garrison upload (HTTP, multipart with busboy)', upload: await uploader(service), pid: service.child.pid, ms: [] },
    ...(formidableService
      ? [
          {
            name: 'garrison upload, formidable instead of busboy',
            upload: await uploader(formidableService),
            pid: formidableService.child.pid,
            ms: [],
          },
        ]
      : []),
    ...(earlyAckService
      ? [
          {
            name: 'garrison upload, formidable, chunks acknowledged at once',
            upload: await uploader(earlyAckService),
            pid: earlyAckService.child.pid,
            ms: [],
          },
        ]
      : []),
    { name: 'bare Node HTTP server streaming the body to disk (same curl)', upload: bareUpload, pid: sink.pid, ms: [] },
  ];
  // CPU time of the receiving process per upload: on a busy machine less noisy than the seconds.
  for (const side of sides) side.cpu = [];

  const before = new Map(await Promise.all(pids.map(async (pid) => [pid, (await usage(pid)).rssMb])));
  const peak = new Map(before);
  const sample = () =>
    pids.forEach((pid) =>
      usage(pid).then(
        (u) => peak.set(pid, Math.max(peak.get(pid), u.rssMb)),
        () => {},
      ),
    );
  const sampler = setInterval(sample, 20);
  for (const side of sides) await side.upload('warm');
  for (let round = 0; round < ROUNDS; round++) {
    // Each side goes first in turn, so that no side always follows the same one.
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(round + i) % sides.length];
      const ticks = (await usage(side.pid)).ticks;
      side.ms.push(await side.upload(round));
      side.cpu.push(((await usage(side.pid)).ticks - ticks) * 10);
    }
  }
  clearInterval(sampler);
  sink.kill();

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const mib = SIZE / 1024 / 1024;
  const rate = (ms) => (mib / (ms / 1000)).toFixed(0);
  const bare = median(sides.at(-1).ms);
  console.log(
    `${mib} MiB mission, ${ROUNDS} alternating rounds, medians:\n` +
      "| side | seconds | MiB/s | bare/side | receiver's CPU ms | RSS growth |\n|---|---|---|---|---|---|",
  );
  for (const side of sides) {
    const growth = peak.has(side.pid) ? `+${(peak.get(side.pid) - before.get(side.pid)).toFixed(0)} MB` : '';
    console.log(
      `| ${side.name} | ${(median(side.ms) / 1000).toFixed(2)} | ${rate(median(side.ms))} ` +
        `| ${(bare / median(side.ms)).toFixed(2)} | ${median(side.cpu)} | ${growth} |`,
    );
  }
  console.log(`| cp on the same disk | ${(copyMs / 1000).toFixed(2)} | ${rate(copyMs)} | | | |`);
  for (const side of sides.slice(0, -1)) {
    const ratio = bare / median(side.ms);
    const growth = peak.get(side.pid) - before.get(side.pid);
    console.log(
      `${side.name}: ${ratio.toFixed(2)}× the bare transport (goal ≥ 0.8): ${ratio >= 0.8 ? 'met' : 'NOT met'}; RSS ` +
        `growth ${growth.toFixed(0)} MB (goal under 64 MiB): ${growth < 64 ? 'met' : 'NOT met'}`,
    );
  }
  console.log('each round, seconds:');
  for (const side of sides)
    console.log(`  ${side.name}: ${side.ms.map((ms) => (ms / 1000).toFixed(2)).join(' ')} (CPU ms ${side.cpu.join(' ')})`);
  // Each round's sides ran back to back: their ratio in the round is less exposed to the machine's slow swings.
  for (const side of sides.slice(0, -1))
    console.log(`bare/side within each round, ${side.name}: median ${median(side.ms.map((ms, i) => sides.at(-1).ms[i] / ms)).toFixed(2)}`);
} finally {
  const services = [service, formidableService, earlyAckService].filter(Boolean);
  await Promise.all(services.map((s) => s.stop()));
  await Promise.all(services.map((s) => rm(s.dataDir, { recursive: true, force: true })));
}

/** formidable's entry from here (a devDependency, `npm i --no-save formidable@3`) or from FORMIDABLE_FROM. */
function resolveFormidable() {
  const from = process.env.FORMIDABLE_FROM ? join(process.env.FORMIDABLE_FROM, 'package.json') : import.meta.url;
  try {
    return createRequire(from).resolve('formidable');
  } catch {
    console.error(
      '--parsers: formidable is not installed here (npm i --no-save formidable@3, or FORMIDABLE_FROM=<folder with it in ' +
        'node_modules>); measuring busboy only',
    );
    return null;
  }
}
