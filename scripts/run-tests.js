#!/usr/bin/env node
// Runs every package's tests with Node's test runner, TypeScript through tsx, workspace packages from source.
// Files run in parallel (each boots its own server on its own ports and database).
//
// Nothing here may hang CI: every test and hook has a timeout (TEST_TIMEOUT_MS, default 60 s, set by
// test-timeouts.js) and fails by name when it passes it; a file whose tests are done exits even if a
// leak keeps handles open; the whole run
// has a deadline (TEST_RUN_DEADLINE_S, default 1200 s) after which everything it started is killed; and
// the fake game servers a run starts exit by themselves once this process is gone (GAMEA_FAKE_WATCH_PID).
//
// `--unit` runs the unit tier alone (each package's test/unit/: services built from the container, no
// server booted), all its files in one process (scripts/unit-tier.mjs); without it, every file runs, the
// unit tier's once among them, each in its own process as the others.
import { spawn } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const unitOnly = args.includes('--unit');
const only = args.filter((a) => a !== '--unit');
const files = [];
const packageDirs = ['packages', 'examples'].flatMap((top) => readdirSync(join(root, top)).map((name) => join(root, top, name, 'test')));
const unitDirs = packageDirs.map((dir) => join(dir, 'unit'));
const testDirs = unitOnly ? unitDirs : [...packageDirs, ...unitDirs];
for (const dir of testDirs) {
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.test.ts') && (only.length === 0 || only.some((o) => join(dir, name).includes(o)))) files.push(join(dir, name));
  }
}
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const positive = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
};
const concurrency = positive('TEST_CONCURRENCY', Math.max(2, availableParallelism() * 2));
positive('TEST_TIMEOUT_MS', 60_000); // checked here, read by test-timeouts.js in each file's process
const deadlineS = positive('TEST_RUN_DEADLINE_S', 1200);

const runner = spawn(
  process.execPath,
  [
    '--conditions=@garrison/source',
    '--import',
    'tsx',
    '--import',
    join(root, 'scripts', 'test-timeouts.js'),
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-force-exit',
    '--test-reporter=spec',
    ...(unitOnly ? [join(root, 'scripts', 'unit-tier.mjs')] : files),
  ],
  {
    stdio: 'inherit',
    cwd: root,
    // A group of its own, so that the deadline and the final sweep reach every process the tests started.
    detached: true,
    env: {
      // tsx applies a tsconfig only to the files it includes; the base config includes everything.
      TSX_TSCONFIG_PATH: join(root, 'tsconfig.base.json'),
      ...process.env,
      GAMEA_FAKE_WATCH_PID: String(process.pid),
      ...(unitOnly ? { GARRISON_UNIT_FILES: JSON.stringify(files) } : {}),
    },
  },
);

const killGroup = (signal) => {
  try {
    process.kill(-runner.pid, signal);
  } catch {
    /* the group is empty */
  }
};

let timedOut = false;
const deadline = setTimeout(() => {
  timedOut = true;
  console.error(`\nrun-tests: the run passed its deadline of ${deadlineS} s (TEST_RUN_DEADLINE_S); killing it`);
  killGroup('SIGTERM');
  setTimeout(() => killGroup('SIGKILL'), 5000).unref();
}, deadlineS * 1000);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killGroup(signal);
    setTimeout(() => killGroup('SIGKILL'), 5000).unref();
  });
}

runner.on('exit', (code, signal) => {
  clearTimeout(deadline);
  killGroup('SIGKILL'); // whatever a test left running in the group
  if (timedOut) process.exit(1);
  process.exit(code ?? (signal ? 1 : 0));
});
