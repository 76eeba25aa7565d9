#!/usr/bin/env node
// Runs every package's tests with Node's test runner, TypeScript through tsx, workspace packages from source.
// Files run in parallel (each boots its own server on its own port and database).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);
const files = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', pkg, 'test');
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.test.ts') && (only.length === 0 || only.some((o) => join(dir, name).includes(o)))) files.push(join(dir, name));
  }
}
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, availableParallelism() * 2));
const result = spawnSync(
  process.execPath,
  ['--conditions=@garrison/source', '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  // tsx applies a tsconfig only to the files it includes; the base config includes everything.
  { stdio: 'inherit', cwd: root, env: { TSX_TSCONFIG_PATH: join(root, 'tsconfig.base.json'), ...process.env } },
);
process.exit(result.status ?? 1);
