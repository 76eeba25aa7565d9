#!/usr/bin/env node
// Builds what is stale, so that `npm start` on a built tree starts at once and still rebuilds after a
// change: the packages through `tsc -b` (incremental: it compares its own build info and is quick when
// nothing changed), and the console only when a file it is made of is newer than the built console.
// `--force` rebuilds the console whatever the times say.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (...parts) => join(ROOT, ...parts);
const bin = (name) => at('node_modules', '.bin', name);

/** What the console is made of: its own sources and the workspace packages it bundles from source. */
const CONSOLE_INPUTS = [
  at('packages/web/src'),
  at('packages/web/index.html'),
  at('packages/web/vite.config.ts'),
  at('packages/web/tsconfig.json'),
  at('packages/web/package.json'),
  at('packages/core/src'),
  at('packages/sdk/src'),
  at('package-lock.json'),
];
const CONSOLE_BUILT = at('packages/server/console/index.html');

/** The newest modification time of a file, or of any file under a folder. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function run(command, args, cwd = ROOT) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(bin('tsc'), ['-b']);

const built = existsSync(CONSOLE_BUILT) ? statSync(CONSOLE_BUILT).mtimeMs : 0;
const changed = Math.max(...CONSOLE_INPUTS.map(newest));
if (process.argv.includes('--force') || changed > built) {
  run(bin('tsc'), ['-p', 'tsconfig.json'], at('packages/web'));
  run(bin('vite'), ['build', '--logLevel', 'warn'], at('packages/web'));
} else {
  console.log('build: the console is up to date');
}
