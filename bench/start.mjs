// `npm start` on a tree that is already built, from the command to "listening", against its baseline in
// the same run: `node packages/server/dist/cli.js serve`, which builds nothing. Then the same after a
// change to a console source, to show that a stale part is rebuilt (and only then).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CONSOLE_SOURCE = join(ROOT, 'packages/web/src/format.ts');
const CONSOLE_BUILT = join(ROOT, 'packages/server/console/index.html');

/** Milliseconds from the spawn of `command` until the service says it listens; the service is then stopped. */
async function timeToListen(command, args) {
  const dataDir = await mkdtemp(join(tmpdir(), 'garrison-bench-start-'));
  const started = performance.now();
  const child = spawn(command, [...args, '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, GARRISON_ADMIN_PASSWORD: 'bench-password-1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    return await new Promise((resolve, reject) => {
      let output = '';
      const onData = (chunk) => {
        output += chunk;
        if (output.includes('listening on')) resolve(performance.now() - started);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${command} exited ${code} before listening:\n${output}`)));
      setTimeout(() => reject(new Error(`${command} did not listen within 120 s:\n${output}`)), 120_000).unref();
    });
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

// A first start builds whatever is stale, so that the rounds measure a built tree.
await timeToListen('npm', ['start', '--']);
const npmStart = [];
const bare = [];
for (let round = 0; round < ROUNDS; round++) {
  bare.push(await timeToListen(process.execPath, ['packages/server/dist/cli.js', 'serve']));
  npmStart.push(await timeToListen('npm', ['start', '--']));
}

// A console source newer than the built console: the next start rebuilds it, the one after does not.
const builtBefore = (await stat(CONSOLE_BUILT)).mtimeMs;
const now = new Date();
await utimes(CONSOLE_SOURCE, now, now);
const afterChange = await timeToListen('npm', ['start', '--']);
const rebuilt = (await stat(CONSOLE_BUILT)).mtimeMs > builtBefore;
const nextStart = await timeToListen('npm', ['start', '--']);

console.log(`rounds: ${ROUNDS}, medians`);
console.log(`| side | median | min | max |`);
console.log(`|---|---|---|---|`);
for (const [name, values] of [
  ['npm start (built tree)', npmStart],
  ['node dist/cli.js serve', bare],
]) {
  console.log(`| ${name} | ${fmt(median(values))} | ${fmt(Math.min(...values))} | ${fmt(Math.max(...values))} |`);
}
console.log(`after a console source changed: ${fmt(afterChange)} (console rebuilt: ${rebuilt}); the start after that: ${fmt(nextStart)}`);
console.log(`goal: npm start on a built tree under 2 s: ${median(npmStart) < 2000 ? 'met' : 'NOT met'}`);
