import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, installFakeGameaTemp, startNatsServer, waitFor, type TestProcess } from '@garrison/testkit';
import { freshMysqlDatabase, startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './browser.js';

const MYSQL = process.env.GARRISON_TEST_DATABASE ?? 'mysql://root@127.0.0.1:3306/test';
const PASSWORD = 'admin-password-1';
const CLUSTER = {
  jwtSecret: 'console-cluster-jwt-secret-0123456789abcdef',
  clusterSecret: 'console-cluster-secret-0123456789abcdefgh',
  nodeHeartbeatMs: 250,
  nodeOfflineAfterMs: 2000,
  adminPassword: PASSWORD,
  rateLimit: 60,
};

// Two instances on one MariaDB and a NATS server of the test's own; the console of node A shows the
// nodes, drains one, and shows live a server of node B as unknown once B goes away.
describe('the console of a cluster', () => {
  let database: Awaited<ReturnType<typeof freshMysqlDatabase>>;
  let nats: TestProcess;
  let a: TestGarrison;
  let b: TestGarrison | null;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(
    async () => {
      const started = await startNatsServer();
      nats = started.process;
      database = await freshMysqlDatabase(MYSQL);
      fake = await installFakeGameaTemp();
      a = await startGarrison({ ...CLUSTER, databaseUrl: database.url, natsUrl: started.url, nodeId: 'node-a' });
      b = await startGarrison({ ...CLUSTER, databaseUrl: database.url, natsUrl: started.url, nodeId: 'node-b' });
      browser = await launchChromium();
    },
    { timeout: 90_000 },
  );
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await b?.close();
    await a?.close();
    await nats?.kill();
    await database?.drop();
    await fake?.remove();
  });

  it('lists the nodes, drains one, and shows a server of a node that went away as unknown', { timeout: 120_000 }, async () => {
    const { page, errors } = await signedInPage(browser, contexts, { url: a.url, username: 'admin', password: PASSWORD });

    // Made on node B through A while the dashboard of A is shown: it appears from the live events B sends.
    await waitFor(() => a.server.webSocketStats().clients > 0, { timeoutMs: 15_000, what: "the console's live connection" });
    const created = await a.api('POST', '/servers', {
      token: a.adminToken,
      body: { name: 'On node B', exe_path: fake.exePath, node_id: 'node-b', ...(await freeGamePorts()) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const card = page.locator(`li[data-server-id="${created.body.data.id}"]`);
    await card.getByTestId('node').filter({ hasText: 'node-b' }).waitFor();
    assert.equal(await card.getByTestId('node-offline').count(), 0);

    await page.getByRole('link', { name: 'Nodes' }).click();
    await page.getByRole('heading', { name: 'Nodes' }).waitFor();
    const rowB = page.locator('tr[data-node-id="node-b"]');
    await rowB.getByTestId('node-state').filter({ hasText: 'online' }).waitFor();
    assert.equal(await page.locator('tr[data-node-id]').count(), 2);
    await page.getByRole('button', { name: 'Drain node-b' }).click();
    await rowB.getByTestId('draining').waitFor();
    const listed = (await a.api('GET', '/nodes', { token: a.adminToken })).body.data as { id: string; draining: boolean }[];
    assert.equal(listed.find((n) => n.id === 'node-b')?.draining, true, 'drained through the console');
    await screenshot(page, 'nodes-desktop');
    await page.getByRole('button', { name: 'Undrain node-b' }).click();
    await rowB.getByTestId('draining').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Servers' }).click();
    await card.getByTestId('node').filter({ hasText: 'node-b' }).waitFor();

    // Node B goes away: A's console says so by itself, from the live events of A.
    await b!.close();
    b = null;
    await card.getByTestId('node-offline').waitFor({ timeout: 30_000 });
    assert.equal(await card.getByTestId('status').textContent(), 'unknown');
    assert.equal(await card.getByRole('button', { name: 'Start' }).count(), 0, 'nothing to start while its node is away');
    await screenshot(page, 'dashboard-node-offline-desktop');
    assert.deepEqual(errors, []);
  });
});
