import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@garrison/testkit';
import { freshMysqlDatabase } from '@garrison/testkit/harness';
import { openDatabase, type Database } from '../src/db/connection.js';
import { TableVersions } from '../src/db/table-versions.js';
import { createServer, expectError, freshPort, onMysql, startHarness, tokenFor, withDatabase, type Harness } from './helpers.js';

describe('table versions, over a real database', () => {
  let db: Database;
  let versions: TableVersions;
  let cleanUp: () => Promise<void>;
  before(async () => {
    if (onMysql) {
      const fresh = await freshMysqlDatabase(process.env.GARRISON_TEST_DATABASE!);
      db = openDatabase(fresh.url, tmpdir());
      cleanUp = fresh.drop;
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'garrison-versions-'));
      db = openDatabase(null, dir);
      cleanUp = () => rm(dir, { recursive: true, force: true });
    }
    await db.knex.schema.createTable('things', (t) => {
      t.increments('id');
      t.string('name');
    });
    await db.knex.schema.createTable('others', (t) => t.increments('id'));
    versions = TableVersions.watching(db.knex);
  });
  after(async () => {
    await db.knex.destroy();
    await cleanUp();
  });

  it('changes with each write to its table, and not with reads or writes to others', async () => {
    const first = versions.stamp(['things']);
    assert.equal(typeof first, 'number');
    await db.knex('things').select('*');
    await db.knex('others').insert({});
    assert.equal(versions.stamp(['things']), first, 'a read and a write to another table change nothing');
    await db.knex('things').insert({ name: 'a' });
    const second = versions.stamp(['things']);
    assert.notEqual(second, first);
    await db.knex('things').update({ name: 'b' });
    assert.notEqual(versions.stamp(['things']), second);
    const third = versions.stamp(['things']);
    await db.knex('things').delete();
    assert.notEqual(versions.stamp(['things']), third);
  });

  it('counts a write as under way while it runs', async () => {
    let during: number | null | undefined;
    // Listeners run in the order added: this one sees the statement after TableVersions has, before the driver runs it.
    const look = () => (during = versions.stamp(['things']));
    db.knex.on('query', look);
    try {
      await db.knex('things').insert({ name: 'c' });
    } finally {
      db.knex.off('query', look);
    }
    assert.equal(during, null, 'under way');
    assert.equal(typeof versions.stamp(['things']), 'number', 'ended');
  });

  it("counts a transaction's writes as under way until it has ended", async () => {
    const before = versions.stamp(['things']);
    let inside: number | null | undefined;
    await db.knex.transaction(async (trx) => {
      await trx('things').insert({ name: 'd' });
      inside = versions.stamp(['things']);
    });
    assert.equal(inside, null, 'under way inside the transaction');
    const after = await waitFor(async () => versions.stamp(['things']) ?? false, { timeoutMs: 5_000, what: 'the transaction to end' });
    assert.notEqual(after, before);
    await db.knex
      .transaction(async (trx) => {
        await trx('things').insert({ name: 'e' });
        throw new Error('rolled back');
      })
      .catch(() => {});
    assert.notEqual(
      await waitFor(async () => versions.stamp(['things']) ?? false, { timeoutMs: 5_000, what: 'the rollback to end' }),
      after,
    );
  });

  it('reads the table of raw SQL, and takes a statement it cannot read (DDL) as a write to every table', async () => {
    const before = versions.stamp(['others']);
    await db.knex.raw('delete from things');
    assert.equal(versions.stamp(['others']), before);
    await db.knex.raw('create table extra (id integer)');
    assert.notEqual(versions.stamp(['others']), before);
  });
});

describe('reused answers and tokens, over HTTP', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const listed = async (token = h.adminToken) => {
    const res = await h.api('GET', '/servers?limit=500', { token });
    assert.equal(res.status, 200);
    return res.body.data as { id: number; name: string }[];
  };

  it('shows each write in the next list, with lists running all the while', async () => {
    let stop = false;
    // Other clients keep the answer in use, so that one is kept at every moment of the writes below.
    const readers = Array.from({ length: 4 }, async () => {
      while (!stop) await listed();
    });
    try {
      for (let i = 0; i < 15; i++) {
        const s = await createServer(h, { name: `Reused ${i}`, game_port: freshPort() });
        assert.equal((await listed()).find((x) => x.id === s.id)?.name, `Reused ${i}`, 'a created server is listed at once');
        assert.equal((await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { name: `Renamed ${i}` } })).status, 200);
        assert.equal((await listed()).find((x) => x.id === s.id)?.name, `Renamed ${i}`, 'a change is listed at once');
        assert.equal((await h.api('DELETE', `/servers/${s.id}`, { token: h.adminToken })).status, 204);
        assert.equal(
          (await listed()).find((x) => x.id === s.id),
          undefined,
          'a deleted server is gone at once',
        );
      }
    } finally {
      stop = true;
      await Promise.all(readers);
    }
  });

  it('keeps answers apart by URL, and never reuses one for a caller who may not see it', async () => {
    const s = await createServer(h, { name: 'Apart', game_port: freshPort() });
    const all = await listed();
    const one = (await h.api('GET', '/servers?limit=1', { token: h.adminToken })).body.data;
    assert.equal(one.length, 1);
    assert.ok(all.length >= 1 && all.some((x) => x.id === s.id));
    expectError(await h.api('GET', '/servers?limit=500', {}), 401, 'UNAUTHORIZED');
    expectError(await h.api('GET', '/servers?limit=500', { token: `${h.adminToken}x` }), 401, 'UNAUTHORIZED');
    expectError(await h.api('GET', '/servers?limit=1.5', { token: h.adminToken }), 400, 'VALIDATION_ERROR');
    const viewer = await tokenFor(h, 'viewer');
    assert.deepEqual(await listed(viewer.token), all, 'the list is the same for every role');
  });

  it('refuses a token at once after a write to the users, even one checked a moment before', async () => {
    const other = await tokenFor(h, 'admin');
    for (let i = 0; i < 3; i++) assert.equal((await h.api('GET', '/servers', { token: other.token })).status, 200);
    assert.equal((await h.api('DELETE', `/auth/users/${other.id}`, { token: h.adminToken })).status, 204);
    expectError(await h.api('GET', '/servers', { token: other.token }), 401, 'UNAUTHORIZED');
  });

  it('sees a write by another process on the same database within the age limit', async () => {
    const s = await createServer(h, { name: 'Elsewhere', game_port: freshPort() });
    await listed();
    await withDatabase(h, (knex) => knex('servers').where({ id: s.id }).update({ name: 'Changed elsewhere' }));
    await waitFor(async () => (await listed()).find((x) => x.id === s.id)?.name === 'Changed elsewhere', {
      timeoutMs: 10_000,
      what: 'the outside write to show',
    });
  });
});
