import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, startProcess, withDeadline } from '@garrison/testkit';
import { apiClient } from '@garrison/testkit/harness';
import { onMysql } from './helpers.js';
import { cliEnv, listeningUrl } from './cli-run.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The server's garrison command talks to a running service through the SDK.
const PACKAGES = ['core', 'battleye', 'sdk', 'adapter-gamea', 'adapter-gameb', 'server'];
// npm installs third-party packages from the registry (its cache first) and compiles better-sqlite3.
const INSTALL_TIMEOUT_MS = 420_000;

/** Runs a command to its end in its own process group, with a deadline; its output on failure. */
async function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<string> {
  const child = startProcess(command, args, { cwd, env: cliEnv(), detached: true });
  const code = await withDeadline(child.exited, timeoutMs, `${command} ${args.join(' ')}`).finally(() => child.kill());
  const output = `${child.stdout.join('\n')}\n${child.stderr.join('')}`;
  assert.equal(code, 0, `${command} ${args.join(' ')} failed:\n${output}`);
  return output;
}

describe('the packaged server, installed from npm pack tarballs', { skip: onMysql && 'packaging does not depend on the database' }, () => {
  const dirs: string[] = [];
  after(async () => {
    await killAll();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'packs each package with only what it needs, installs into an empty folder, and serves with the bundled adapters',
    { timeout: INSTALL_TIMEOUT_MS + 120_000 },
    async () => {
      const packs = await mkdtemp(join(tmpdir(), 'garrison-packs-'));
      const app = await mkdtemp(join(tmpdir(), 'garrison-install-'));
      dirs.push(packs, app);

      await run('npm', ['pack', '--silent', ...PACKAGES.flatMap((p) => ['-w', `packages/${p}`]), '--pack-destination', packs], ROOT);
      const tarballs = PACKAGES.map((p) => join(packs, `garrison-${p}-1.0.0.tgz`));
      for (const tarball of tarballs) {
        const files = (await run('tar', ['-tzf', tarball], packs))
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        for (const needed of [
          'package/package.json',
          'package/README.md',
          'package/LICENSE',
          'package/dist/index.js',
          'package/dist/index.d.ts',
        ]) {
          assert.ok(files.includes(needed), `${tarball} holds ${needed} (is the build done?)`);
        }
        const extra = files.filter((f) => /^package\/(test|bench|node_modules)\/|tsconfig|\.tsbuildinfo$|\.test\.ts$/.test(f));
        assert.deepEqual(extra, [], `${tarball} holds nothing for development`);
      }

      // An empty project, as a deployer makes one; better-sqlite3 may run its build script.
      await writeFile(
        join(app, 'package.json'),
        JSON.stringify({ name: 'garrison-deployment', private: true, allowScripts: { 'better-sqlite3': true } }),
      );
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], app, INSTALL_TIMEOUT_MS);

      const bin = join(app, 'node_modules', '.bin', 'garrison');
      assert.match(await run(bin, ['--version'], app), /^1\.0\.0$/m);
      const service = startProcess(bin, ['serve', '--port', '0', '--data-dir', join(app, 'data')], { cwd: app, env: cliEnv() });
      const url = await listeningUrl(service, 'the installed garrison to listen', 60_000);
      const api = apiClient(url);
      assert.deepEqual((await api('GET', '/system/health')).body, { status: 'ok' });
      const games = (await api('GET', '/games')).body.data as { game_type: string }[];
      assert.deepEqual(
        games.map((g) => g.game_type),
        ['gamea', 'gameb'],
        'the bundled adapters are found in the installed packages',
      );
      assert.ok(service.stdout.some((l) => l.includes('"source":"@garrison/adapter-gamea"')));
      assert.ok(service.stdout.some((l) => l.includes('"source":"@garrison/adapter-gameb"')));
      service.child.kill('SIGTERM');
      assert.equal(await withDeadline(service.exited, 30_000, 'the installed garrison to stop'), 0);
    },
  );
});
