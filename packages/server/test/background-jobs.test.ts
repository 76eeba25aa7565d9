import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '@garrison/testkit';
import { FakeClock } from '@garrison/server';
import { createServer, expectError, startHarness, withDatabase, type Harness } from './helpers.js';
import { advanceUntil, wsClient } from './games.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';
import { jobKindsFeature } from './job-kinds-feature.js';
import { LEASE_MS } from '../src/background-jobs/worker.js';
import { DatabaseClock } from '../src/db/database-clock.js';
import { SWEEP_POLLS } from '../src/background-jobs/settings.js';

const POLL_MS = 2_000;
const SWEEP_MS = POLL_MS * SWEEP_POLLS;

const TIMEOUT = { timeout: 60_000 };

async function enqueue(h: Harness, body: Record<string, unknown>): Promise<number> {
  const res = await h.api('POST', '/test-jobs', { token: h.adminToken, body: { server_id: null, ...body } });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.data.job_id as number;
}

const job = async (h: Harness, id: number, token = h.adminToken) => (await h.api('GET', `/jobs/${id}`, { token })).body.data;
const statusBecomes = (h: Harness, id: number, status: string) =>
  waitFor(async () => ((await job(h, id)).status === status ? job(h, id) : null), { timeoutMs: 20_000, what: `job ${id} ${status}` });
const trail = async (h: Harness, id: number) =>
  ((await h.api('GET', '/audit?target_kind=job&limit=100', { token: h.adminToken })).body.data.entries as Record<string, any>[])
    .filter((e) => e.target_id === String(id))
    .reverse();

describe('background jobs', () => {
  const harnesses: Harness[] = [];
  const receivers: Receiver[] = [];
  after(async () => {
    for (const h of harnesses.reverse()) await h.close().catch(() => {});
    for (const r of receivers) await r.close();
  });
  const harness = async (options: Record<string, unknown> = {}) => {
    const feature = jobKindsFeature();
    const h = await startHarness({ modules: [feature.module], ...options });
    harnesses.push(h);
    return { h, feature };
  };

  it('runs a job queued → running → done, told over the WebSocket, audited at each step', TIMEOUT, async () => {
    const { h, feature } = await harness();
    const server = await createServer(h);
    const ws = await wsClient(h.url, `/ws?token=${h.adminToken}`);
    try {
      const id = await enqueue(h, { server_id: server.id });
      await feature.gate(id).started;
      const told = (status: string, progress?: number) => (m: any) =>
        m.type === 'job_progress' &&
        m.data.job_id === id &&
        m.data.status === status &&
        (progress === undefined || m.data.progress === progress);
      const queued = await ws.next(told('queued'), 'queued');
      assert.equal(queued.server_id, server.id);
      assert.deepEqual(queued.data, { job_id: id, server_id: server.id, kind: 'test.gated', status: 'queued', progress: 0 });
      await ws.next(told('running'), 'running');
      // The progress is written and told by the heartbeat, not by each report.
      await ws.next(told('running', 0.5), 'half way');
      const half = await job(h, id);
      assert.equal(half.status, 'running');
      assert.equal(half.progress, 0.5);
      assert.deepEqual(half.log, ['half way']);
      assert.ok(half.started_at && !half.finished_at);
      // A viewer may follow it.
      assert.equal((await job(h, id, h.viewerToken)).id, id);

      feature.gate(id).release();
      await ws.next(told('done', 1), 'done');
      const done = await statusBecomes(h, id, 'done');
      assert.equal(done.progress, 1);
      assert.deepEqual(done.log, ['half way', 'done']);
      assert.equal(done.error, undefined);
      assert.ok(done.finished_at);
      assert.deepEqual(
        (await trail(h, id)).map((e) => [e.event_type, e.actor_kind, e.server_id]),
        [
          ['job_queued', 'user', server.id],
          ['job_started', 'system', server.id],
          ['job_done', 'system', server.id],
        ],
      );
    } finally {
      ws.close();
    }
  });

  it('ends a failing job with its code and message, audited and told to webhooks (job.failed)', TIMEOUT, async () => {
    const { h, feature } = await harness({ webhookAllowPrivate: true });
    const receiver = await startReceiver();
    receivers.push(receiver);
    const created = await h.api('POST', '/webhooks', {
      token: h.adminToken,
      body: { url: `${receiver.url}/hook`, kind: 'generic', events: ['job.failed'] },
    });
    assert.equal(created.status, 201);
    const id = await enqueue(h, { fail: { code: 'TEST_BROKEN', message: 'the test broke it' } });
    await feature.gate(id).started;
    feature.gate(id).release();
    const failed = await statusBecomes(h, id, 'failed');
    assert.deepEqual(failed.error, { code: 'TEST_BROKEN', message: 'the test broke it' });
    assert.equal(failed.server_id, null);
    const entry = (await trail(h, id)).find((e) => e.event_type === 'job_failed')!;
    assert.deepEqual(entry.detail, { job_id: id, kind: 'test.gated', error_code: 'TEST_BROKEN', error_message: 'the test broke it' });
    const delivered = await waitFor(() => receiver.received.find((r) => (r.json as any)?.type === 'job.failed'), {
      timeoutMs: 20_000,
      what: 'the job.failed delivery',
    });
    assert.deepEqual((delivered.json as any).data, {
      server_id: null,
      server_name: null,
      job_id: id,
      kind: 'test.gated',
      code: 'TEST_BROKEN',
      message: 'the test broke it',
    });
  });

  it('runs one job at a time; cancels a queued one at once and a running one through its signal', TIMEOUT, async () => {
    const { h, feature } = await harness();
    const first = await enqueue(h, {});
    await feature.gate(first).started;
    const second = await enqueue(h, {});
    assert.equal((await job(h, second)).status, 'queued', 'the worker runs one job at a time');

    expectError(await h.api('DELETE', `/jobs/${second}`, { token: h.viewerToken }), 403, 'FORBIDDEN');
    const cancelled = await h.api('DELETE', `/jobs/${second}`, { token: h.adminToken });
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.data.status, 'cancelled');
    assert.ok(cancelled.body.data.finished_at);

    const asked = await h.api('DELETE', `/jobs/${first}`, { token: h.adminToken });
    assert.equal(asked.status, 200);
    assert.equal(asked.body.data.cancel_requested, true);
    const ended = await statusBecomes(h, first, 'cancelled');
    assert.equal(ended.error, undefined);
    assert.deepEqual(feature.aborted, [first], 'the executor heard its signal');
    assert.deepEqual(
      (await trail(h, first)).map((e) => [e.event_type, e.actor_kind]),
      [
        ['job_queued', 'user'],
        ['job_started', 'system'],
        ['job_cancel_requested', 'user'],
        ['job_cancelled', 'system'],
      ],
    );
    assert.deepEqual(
      (await trail(h, second)).map((e) => e.event_type),
      ['job_queued', 'job_cancelled'],
    );
    expectError(await h.api('DELETE', `/jobs/${first}`, { token: h.adminToken }), 409, 'CONFLICT');
    expectError(await h.api('GET', '/jobs/999999', { token: h.adminToken }), 404, 'NOT_FOUND');
    expectError(await h.api('DELETE', '/jobs/999999', { token: h.adminToken }), 404, 'NOT_FOUND');
  });

  it('cancels a running job whose node is another instance: the flag is read by the heartbeat', TIMEOUT, async () => {
    const { h, feature } = await harness();
    const id = await enqueue(h, {});
    await feature.gate(id).started;
    // As another node's DELETE leaves it: the flag alone, no word to this worker.
    await withDatabase(h, (knex) => knex('background_jobs').where({ id }).update({ cancel_requested: true }));
    await statusBecomes(h, id, 'cancelled');
    assert.deepEqual(feature.aborted, [id]);
  });

  it('writes a chatty job throttled: the last 100 lines, each cut to 500 characters', TIMEOUT, async () => {
    const { h, feature } = await harness();
    const id = await enqueue(h, { chatty: 5_000 });
    await feature.gate(id).started;
    feature.gate(id).release();
    const done = await statusBecomes(h, id, 'done');
    assert.equal(done.log.length, 100);
    assert.equal(done.log.at(-1), 'done');
    assert.ok(done.log.every((line: string) => line.length <= 500));
    assert.match(done.log[0], /^chatter 4902 /);
  });

  it('hides the jobs of servers a key may not see', TIMEOUT, async () => {
    const { h, feature } = await harness();
    const [mine, other] = [await createServer(h), await createServer(h)];
    const id = await enqueue(h, { server_id: other.id });
    await feature.gate(id).started;
    const key = await h.api('POST', '/auth/keys', {
      token: h.adminToken,
      body: { name: 'limited', scopes: ['servers:read'], server_ids: [mine.id] },
    });
    assert.equal(key.status, 201, JSON.stringify(key.body));
    expectError(await h.api('GET', `/jobs/${id}`, { token: key.body.data.key }), 404, 'NOT_FOUND');
    feature.gate(id).release();
    await statusBecomes(h, id, 'done');
  });

  it('fails a job cut short by a stop of the service, and at the next start those it left running', TIMEOUT, async () => {
    const { h: first, feature } = await harness();
    const id = await enqueue(first, {});
    await feature.gate(id).started;
    await first.server.close(); // what SIGTERM does: the job hears its signal and ends interrupted
    assert.deepEqual(feature.aborted, [id]);
    // As a SIGKILL leaves one: running under a lease of this node, with nothing to end it.
    const left = await withDatabase(first, async (knex) => {
      const row = await knex('background_jobs').where({ id }).first();
      const [leftId] = await knex('background_jobs').insert({ ...row, id: undefined, status: 'running', error_code: null });
      return leftId;
    });
    const { h: second } = await harness({ dataDir: first.dataDir, databaseUrl: first.databaseUrl });
    for (const which of [id, left]) {
      const ended = await job(second, which);
      assert.equal(ended.status, 'failed');
      assert.deepEqual(ended.error, { code: 'JOB_INTERRUPTED', message: 'the service stopped during the job' });
    }
  });

  it("fails JOB_EXPIRED a job left queued past GARRISON_JOB_QUEUE_HOURS (no node runs it), by the database's clock", TIMEOUT, async () => {
    const clock = new FakeClock(new Date('2040-01-01T00:00:00Z'));
    const { h, feature } = await harness({ clock, backgroundJobPollMs: POLL_MS, jobQueueHours: 2 });
    // A job queued through the service gets its deadline from the setting, by the database's clock.
    const mine = await enqueue(h, {});
    await feature.gate(mine).started;
    const deadline = await withDatabase(h, async (knex) => {
      const inMs = knex.raw('? as ms', [new DatabaseClock(knex).ageMs('queued_until')]);
      const rows: { queued_until: string; ms: number }[] = await knex('background_jobs').where({ id: mine }).select('queued_until', inMs);
      const [row] = rows;
      return { until: row.queued_until, inMs: -Number(row.ms) };
    });
    assert.ok(Math.abs(deadline.inMs - 2 * 3_600_000) < 60_000, JSON.stringify(deadline));
    feature.gate(mine).release();
    await statusBecomes(h, mine, 'done'); // its end written before the test writes beside it (SQLite's one writer)
    const [stale, fresh] = await withDatabase(h, async (knex) => {
      const database = new DatabaseClock(knex);
      const row = (queueMs: number) => ({
        kind: 'steam.elsewhere', // a kind no node runs
        node_id: 'node-gone',
        status: 'queued',
        progress: 0,
        payload: '{}',
        log: '[]',
        queued_until: database.now(queueMs),
        created_at: new Date(clock.now()).toISOString(),
      });
      const [staleId] = await knex('background_jobs').insert(row(-1_000));
      const [freshId] = await knex('background_jobs').insert(row(3_600_000));
      return [staleId, freshId];
    });
    const failed = await advanceUntil(
      clock,
      async () => ((await job(h, stale)).status === 'failed' ? job(h, stale) : null),
      'the sweep',
      SWEEP_MS / 4,
    );
    assert.equal(failed.error.code, 'JOB_EXPIRED');
    assert.match(failed.error.message, /queued for 2 hours and never started: node node-gone is gone, or runs no steam\.elsewhere job/);
    assert.ok(failed.finished_at);
    assert.deepEqual(
      (await trail(h, stale)).map((e) => [e.event_type, e.actor_kind, e.detail.error_code]),
      [['job_failed', 'system', 'JOB_EXPIRED']],
    );
    await clock.advance(SWEEP_MS * 2);
    assert.equal((await job(h, fresh)).status, 'queued', 'its deadline is still ahead');
  });

  // A lease is written and compared by the database's clock: a node whose own clock is years off neither takes
  // a live job over (a clock ahead) nor leaves a dead one running for ever (a clock behind).
  for (const [skew, start] of [
    ['years ahead', '2040-01-01T00:00:00Z'],
    ['years behind', '2001-01-01T00:00:00Z'],
  ] as const) {
    it(`sweeps by the database's clock, from a node whose clock runs ${skew}: a dead job failed, a live one kept`, TIMEOUT, async () => {
      const clock = new FakeClock(new Date(start));
      const { h } = await harness({ clock, backgroundJobPollMs: POLL_MS });
      const [live, dead] = await withDatabase(h, async (knex) => {
        const database = new DatabaseClock(knex);
        const row = (leaseMs: number) => ({
          kind: 'steam.elsewhere',
          node_id: 'node-elsewhere',
          status: 'running',
          progress: 0.25,
          payload: '{}',
          log: '[]',
          lease_until: database.now(leaseMs),
          created_at: new Date(clock.now()).toISOString(),
          started_at: new Date(clock.now()).toISOString(),
        });
        const [liveId] = await knex('background_jobs').insert(row(LEASE_MS)); // renewed a moment ago, by the database's clock
        const [deadId] = await knex('background_jobs').insert(row(-1_000)); // its node stopped renewing it
        return [liveId, deadId];
      });
      const failed = await advanceUntil(
        clock,
        async () => ((await job(h, dead)).status === 'failed' ? job(h, dead) : null),
        'the sweep',
        SWEEP_MS / 4,
      );
      assert.equal(failed.error.code, 'JOB_INTERRUPTED');
      assert.equal(failed.progress, 0.25);
      await clock.advance(SWEEP_MS * 2);
      assert.equal((await job(h, live)).status, 'running', "its lease still holds by the database's clock");
    });
  }
});
