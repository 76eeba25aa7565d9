// A backup of a server folder (BENCH_BACKUP_MB, 1 GiB by default: half incompressible, half text as
// profiles and logs are) by Garrison's archive writer, against `tar czf` of the same folder in the same
// run. Goal: at least 0.8 of tar's throughput; the writer's peak RSS growth under 64 MiB (measured in
// a process of its own).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MB = Number(process.env.BENCH_BACKUP_MB ?? 1024);
const work = await mkdtemp(join(tmpdir(), 'garrison-bench-backup-'));
const folder = join(work, 'server');

async function fill() {
  await mkdir(join(folder, 'Users', 'server'), { recursive: true });
  const text = Buffer.from(
    Array.from(
      { length: 20_000 },
      (_, i) => `12:00:${String(i % 60).padStart(2, '0')} Player #${i % 64} Bob${i} connected; persistence saved (${i})\n`,
    ).join(''),
  );
  let written = 0;
  for (let i = 0; written < MB * 1024 * 1024; i++) {
    const chunk =
      i % 2 === 0
        ? randomBytes(8 * 1024 * 1024)
        : Buffer.concat(Array.from({ length: Math.ceil((8 * 1024 * 1024) / text.length) }, () => text)).subarray(0, 8 * 1024 * 1024);
    await writeFile(join(folder, 'Users', 'server', `file-${i}.vars`), chunk);
    written += chunk.length;
  }
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) =>
      code === 0 ? resolve({ ms: performance.now() - started, out }) : reject(new Error(`${command} exited ${code}`)),
    );
  });
}

try {
  await fill();
  const size = MB * 1024 * 1024;
  const rounds = Number(process.env.ROUNDS ?? 2);
  const results = { tar: [], garrison: [], rss: [] };
  for (let r = 0; r < rounds; r++) {
    const tarOut = join(work, `tar-${r}.tar.gz`);
    results.tar.push((await run('tar', ['czf', tarOut, '-C', work, 'server'])).ms);
    await rm(tarOut);
    const ours = await run(process.execPath, [join(ROOT, 'bench/backup-writer.mjs'), folder, join(work, `garrison-${r}.tar.gz`)]);
    results.garrison.push(ours.ms);
    results.rss.push(JSON.parse(ours.out).rssGrowthMiB);
    console.log(
      `round ${r + 1}: tar czf ${(results.tar[r] / 1000).toFixed(1)} s, Garrison ${(ours.ms / 1000).toFixed(1)} s ` +
        `(${(await stat(join(work, `garrison-${r}.tar.gz`))).size} bytes), RSS growth ${results.rss[r].toFixed(1)} MiB`,
    );
    await rm(join(work, `garrison-${r}.tar.gz`));
  }
  const best = (xs) => Math.min(...xs);
  const ratio = best(results.tar) / best(results.garrison);
  console.log(
    `throughput: tar czf ${(size / 1048576 / (best(results.tar) / 1000)).toFixed(1)} MiB/s, ` +
      `Garrison ${(size / 1048576 / (best(results.garrison) / 1000)).toFixed(1)} MiB/s: ratio ${ratio.toFixed(2)} (goal ≥ 0.8)`,
  );
  console.log(`peak RSS growth: ${Math.max(...results.rss).toFixed(1)} MiB (goal < 64)`);
} finally {
  await rm(work, { recursive: true, force: true });
  void execFileSync;
}
