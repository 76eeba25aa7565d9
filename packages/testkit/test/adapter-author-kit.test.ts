import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, startProcess, withDeadline } from '@garrison/testkit';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// npm installs TypeBox from the registry (its cache first).
const INSTALL_TIMEOUT_MS = 240_000;

/** Runs a command to its end in its own process group, with a deadline; its output, and its exit code. */
async function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<{ code: number | string; output: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GARRISON_') && !k.startsWith('NODE_')));
  const child = startProcess(command, args, { cwd, env, detached: true });
  const code = await withDeadline(child.exited, timeoutMs, `${command} ${args.join(' ')}`).finally(() => child.kill());
  return { code, output: `${child.stdout.join('\n')}\n${child.stderr.join('')}` };
}

async function ok(command: string, args: string[], cwd: string, timeoutMs?: number): Promise<string> {
  const { code, output } = await run(command, args, cwd, timeoutMs);
  assert.equal(code, 0, `${command} ${args.join(' ')} failed:\n${output}`);
  return output;
}

/** A one-capability adapter, as an author outside this repository writes it, in plain JavaScript. */
const ADAPTER = `
import { ADAPTER_API_VERSION, defineAdapter } from '@garrison/core';
export default defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'othergame', display_name: 'Other Game', version: '0.1.0', schema_version: '1' },
  capabilities: {
    process_config: { allowedExecutables: ['otherd'], launchArguments: (_config, ctx) => ['-port=' + ctx.server.game_port] },
  },
});
`;

const ADAPTER_WITH_A_BAD_NAME = ADAPTER.replace("'othergame'", "'Other Game'");

const TESTS = `
import { adapterConformance, FakeRconServer, installFakeGameaTemp } from '@garrison/testkit';
import { BattlEyeClient } from '@garrison/battleye';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import adapter from '../src/index.js';

adapterConformance(adapter);

test('the fake RCon server and the fake game come with the testkit', async () => {
  const rcon = await FakeRconServer.start({ password: 'Secret1' });
  try {
    const client = await BattlEyeClient.connect({ host: '127.0.0.1', port: rcon.port, password: 'Secret1', resendMs: 100 });
    rcon.handle('version', () => '1.0');
    assert.equal(await client.command('version'), '1.0');
    await client.close();
  } finally {
    await rcon.close();
  }
  const fake = await installFakeGameaTemp();
  await fake.remove();
});
`;

describe('an adapter author with only @garrison/core and @garrison/testkit', () => {
  const dirs: string[] = [];
  after(async () => {
    await killAll();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'installs both from their tarballs into an empty project and runs the conformance suite, which fails an adapter the ' +
      'service would refuse',
    { timeout: INSTALL_TIMEOUT_MS + 120_000 },
    async () => {
      const packs = await mkdtemp(join(tmpdir(), 'garrison-kit-packs-'));
      const project = await mkdtemp(join(tmpdir(), 'garrison-adapter-author-'));
      dirs.push(packs, project);

      const kit = ['core', 'battleye', 'testkit'];
      await ok('npm', ['pack', '--silent', ...kit.flatMap((p) => ['-w', `packages/${p}`]), '--pack-destination', packs], ROOT);
      const tarballs = kit.map((p) => join(packs, `garrison-${p}-1.0.0.tgz`));
      const testkitManifest = JSON.parse(await ok('tar', ['-xzOf', tarballs[2], 'package/package.json'], packs)) as {
        dependencies: Record<string, string>;
      };
      assert.deepEqual(
        Object.keys(testkitManifest.dependencies)
          .filter((name) => name.startsWith('@garrison/'))
          .sort(),
        ['@garrison/battleye', '@garrison/core'],
        'the testkit needs nothing of ours but core and the BattlEye client its fake speaks',
      );

      await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'garrison-adapter-othergame', private: true, type: 'module' }));
      await ok('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', ...tarballs], project, INSTALL_TIMEOUT_MS);
      const installed = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
      const ours = Object.keys(installed.packages)
        .filter((p) => p.startsWith('node_modules/@garrison/'))
        .sort();
      assert.deepEqual(
        ours,
        ['node_modules/@garrison/battleye', 'node_modules/@garrison/core', 'node_modules/@garrison/testkit'],
        'no server, no adapter, no database driver',
      );

      await ok('mkdir', ['-p', 'src', 'test'], project);
      await writeFile(join(project, 'src', 'index.js'), ADAPTER);
      await writeFile(join(project, 'test', 'conformance.test.js'), TESTS);
      const passed = await ok('node', ['--test', '--test-timeout=60000', 'test/'], project);
      assert.match(passed, /# fail 0/);
      assert.match(passed, /adapter conformance: othergame/);

      // The suite applies the loader's rule: a game type the service refuses fails here too.
      await writeFile(join(project, 'src', 'index.js'), ADAPTER_WITH_A_BAD_NAME);
      const failed = await run('node', ['--test', '--test-timeout=60000', 'test/'], project);
      assert.notEqual(failed.code, 0);
      assert.match(failed.output, /game_type "Other Game" is not a lower-case identifier/);
    },
  );
});
