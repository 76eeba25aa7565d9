import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { freeGamePorts, installFakeGameaTemp, waitFor, withDeadline } from '@garrison/testkit';
import { startGarrison, type TestGarrison } from '@garrison/testkit/harness';
import { GarrisonApiError, GarrisonClient, type LiveEvent } from '@garrison/sdk';

describe('GarrisonClient live events', () => {
  let g: TestGarrison;
  let fake: Awaited<ReturnType<typeof installFakeGameaTemp>>;
  let client: GarrisonClient;
  const started: number[] = [];
  before(async () => {
    fake = await installFakeGameaTemp();
    g = await startGarrison({ stopTimeoutMs: 3000 });
    client = new GarrisonClient({ baseUrl: g.url, token: g.adminToken });
  });
  after(async () => {
    for (const pid of started) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await g.close();
    await fake.remove();
  });

  it("delivers the audit trail's entries only when asked to (auditEntries)", async () => {
    const s = await client.servers.create({ name: 'Audited', exe_path: fake.exePath, ...(await freeGamePorts()) });
    const asked: string[] = [];
    const notAsked: string[] = [];
    const withEntries = client.events.subscribe({ serverIds: [s.id], auditEntries: true }, { event: (e) => asked.push(e.data.event_type) });
    const without = client.events.subscribe({ serverIds: [s.id] }, { event: (e) => notAsked.push(e.data.event_type) });
    try {
      await withDeadline(Promise.all([withEntries.ready, without.ready]), 10_000, 'the subscriptions');
      // The subscribe message follows the connection: an entry recorded from now on must arrive.
      await waitFor(
        async () => {
          await client.servers.update(s.id, { description: `at ${Date.now()}` });
          return asked.includes('server_updated');
        },
        { timeoutMs: 15_000, intervalMs: 300, what: 'the server_updated entry' },
      );
      assert.deepEqual(notAsked, [], 'the default subscription carries no audit entries');
    } finally {
      withEntries.close();
      without.close();
    }
  });

  it(
    'is connected only once the channels are as asked: an entry recorded right after is delivered, and log lines are left out ' +
      'on request',
    async () => {
      const s = await client.servers.create({ name: 'Channels', exe_path: fake.exePath, ...(await freeGamePorts()) });
      const entries: string[] = [];
      const lines: string[] = [];
      const statuses: string[] = [];
      const sub = client.events.subscribe(
        { serverIds: [s.id], auditEntries: true, channels: ['status'] },
        {
          event: (e) => entries.push(e.data.event_type),
          log: (e) => lines.push(e.data.message),
          server_status: (e) => statuses.push(e.data.status),
        },
      );
      try {
        await withDeadline(sub.ready, 10_000, 'the subscription');
        // No retry loop: `ready` means the audit channel is on.
        await client.servers.update(s.id, { description: 'right after connecting' });
        await waitFor(() => entries.includes('server_updated'), { timeoutMs: 10_000, what: 'the entry' });
        started.push((await client.servers.start(s.id)).pid);
        await waitFor(() => statuses.includes('running'), { timeoutMs: 30_000, what: 'running' });
        await client.servers.stop(s.id);
        await waitFor(() => statuses.includes('stopped'), { timeoutMs: 30_000, what: 'stopped' });
        assert.deepEqual(lines, [], 'a started game logs, and none of it came');
      } finally {
        sub.close();
      }
    },
  );

  it("delivers a server's events typed by type, to handlers and to a for-await loop", async () => {
    const s = await client.servers.create({ name: 'Live', exe_path: fake.exePath, ...(await freeGamePorts()) });
    const seen: Extract<LiveEvent, { type: 'log' }>[] = [];
    const statuses: string[] = [];
    const subscription = client.events.subscribe(
      { serverIds: [s.id] },
      {
        server_status: (e) => statuses.push(e.data.status),
        log: (e) => seen.push(e),
      },
    );
    const iterator = client.events.stream({ serverIds: [s.id] });
    const fromLoop = (async () => {
      for await (const event of iterator) if (event.type === 'server_status' && event.data.status === 'running') return event;
      return null;
    })();
    try {
      await withDeadline(subscription.ready, 10_000, 'the subscription');
      const { pid } = await client.servers.start(s.id);
      started.push(pid);
      await waitFor(() => statuses.includes('running'), { timeoutMs: 30_000, what: 'the running status event' });
      assert.ok(statuses.includes('starting'));
      await waitFor(() => seen.some((e) => e.data.message.includes('Dedicated host created')), {
        timeoutMs: 30_000,
        what: 'the game log line',
      });
      const running = await withDeadline(fromLoop, 30_000, 'the loop to see running');
      assert.equal(running?.server_id, s.id);
      // The catalogue's envelope, typed: one id per event, its time, and the instance it came from.
      const line: { id: string; time: string; origin: string } = seen[0];
      assert.ok(line.id && line.origin, JSON.stringify(line));
      assert.equal(new Date(line.time).toISOString(), line.time);
      assert.equal(new Set(seen.map((e) => e.id)).size, seen.length, 'each event its own id');
      await client.servers.kill(s.id);
    } finally {
      subscription.close();
      await iterator.return(undefined);
    }
  });

  it('fails clearly when the token is refused, in both forms', async () => {
    const stranger = new GarrisonClient({ baseUrl: g.url, token: 'not.a.token' });
    let closedWith: unknown = 'not yet';
    const subscription = stranger.events.subscribe({}, { closed: (err) => (closedWith = err) });
    const refused = await withDeadline(
      subscription.ready.then(
        () => null,
        (e: unknown) => e,
      ),
      10_000,
      'the refusal',
    );
    assert.ok(refused instanceof GarrisonApiError);
    assert.equal(refused.code, 'UNAUTHORIZED');
    assert.equal(closedWith, refused);
    await assert.rejects(
      withDeadline(
        (async () => {
          for await (const _ of stranger.events.stream()) void _;
        })(),
        10_000,
        'the loop to fail',
      ),
      (err: unknown) => err instanceof GarrisonApiError && err.code === 'UNAUTHORIZED',
    );
  });

  it('reconnects with back-off after the service goes away, and subscribes again', async () => {
    const first = await startGarrison();
    const port = Number(new URL(first.url).port);
    const c = new GarrisonClient({ baseUrl: first.url, token: first.adminToken });
    let connections = 0;
    const subscription = c.events.subscribe({ reconnectDelayMs: 50, maxReconnectDelayMs: 200 }, { connected: () => connections++ });
    let second: TestGarrison | null = null;
    try {
      await withDeadline(subscription.ready, 10_000, 'the first connection');
      await first.server.close(); // closes the socket with 1001
      // The same service again, on the same port and data (so the token stays valid).
      second = await startGarrison({ port, dataDir: first.dataDir, databaseUrl: first.databaseUrl, adminPassword: first.adminPassword });
      await waitFor(() => connections >= 2, { timeoutMs: 20_000, what: 'the reconnection' });
    } finally {
      subscription.close();
      await second?.close();
      await first.close();
    }
  });
});
