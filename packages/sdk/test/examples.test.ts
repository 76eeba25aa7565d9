import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { freeGamePorts, installFakeGameaTemp, startProcess, withDeadline } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import { GarrisonClient } from '@garrison/sdk';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../../examples/sdk-follow-logs/follow-logs.ts', import.meta.url));

describe('the SDK examples run as written', () => {
  let g: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  before(async () => {
    fake = await installFakeGameaTemp();
    g = await startGarrison({ stopTimeoutMs: 3000 });
  });
  after(async () => {
    await g.close();
    await fake.remove();
  });

  it('follow-logs: logs in, lists the servers, starts one and follows its log lines live', { timeout: 120_000 }, async () => {
    const client = new GarrisonClient({ baseUrl: g.url, token: g.adminToken });
    const s = await client.servers.create({ name: 'Example', exe_path: fake.exePath, ...(await freeGamePorts()) });
    const example = startProcess(process.execPath, [...process.execArgv, EXAMPLE, String(s.id), '3'], {
      cwd: ROOT,
      env: { ...process.env, GARRISON_URL: g.url, GARRISON_USERNAME: 'admin', GARRISON_PASSWORD: g.adminPassword },
    });
    try {
      const code = await withDeadline(example.exited, 60_000, 'the example to follow three lines');
      const output = example.stdout.join('\n');
      assert.equal(code, 0, `${output}\n${example.stderr.join('')}`);
      assert.match(output, new RegExp(`^#${s.id} Example \\(gamea\\) stopped$`, 'm'), 'the list');
      assert.match(output, new RegExp(`^started server ${s.id}, pid \\d+$`, 'm'));
      assert.match(output, /^status: starting$/m);
      assert.match(output, /Dedicated host created\./);
      assert.match(output, /^followed 3 lines$/m);
    } finally {
      await example.kill();
      await client.servers.kill(s.id).catch(() => {});
    }
  });
});
