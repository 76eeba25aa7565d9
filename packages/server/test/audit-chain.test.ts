import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { freshMysqlDatabase } from '@garrison/testkit/harness';
import { AuditRepository } from '../src/db/repositories/audit.js';
import { verifyChain } from '../src/audit/verify.js';
import { hashOf, type ChainedFields } from '../src/audit/chain.js';
import { openDatabase } from '../src/db/connection.js';
import { migrationSource } from '../src/db/migrations/index.js';
import { createServer, onMysql, startHarness, withDatabase, type Harness } from './helpers.js';
import { garrison } from './cli-run.js';

type Row = ChainedFields & { hash: string };

const rows = (knex: Knex) => knex<Row>('audit_entries').select('*').orderBy('id') as Promise<Row[]>;
const verify = (h: Harness) => withDatabase(h, (knex) => verifyChain(new AuditRepository(knex)));
/** Runs `edit` on the database, checks what verification says, then puts the entries back as they were. */
async function tampered(h: Harness, edit: (knex: Knex, entries: Row[]) => Promise<void>) {
  return withDatabase(h, async (knex) => {
    const before = await rows(knex);
    const head = await knex('audit_head').where({ id: 1 }).first();
    await edit(knex, before);
    const result = await verifyChain(new AuditRepository(knex));
    await knex('audit_entries').delete();
    await knex('audit_entries').insert(before);
    await knex('audit_head').where({ id: 1 }).update(head);
    return { result, entries: before };
  });
}

describe('the audit chain: tamper-evident, checked by garrison audit verify', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    const s = await createServer(h, { name: 'Chained' });
    for (const description of ['one', 'two', 'three'])
      await h.api('PUT', `/servers/${s.id}`, { token: h.adminToken, body: { description } });
    await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'chained_user', password: 'a-password-1' } });
  });
  after(() => h?.close());

  const cli = (args: string[] = []) =>
    garrison(['audit', 'verify', '--data-dir', h.dataDir, ...(h.databaseUrl ? ['--database', h.databaseUrl] : []), ...args], {
      timeoutMs: 60_000,
    });

  it('holds as written, and the CLI says so (exit 0)', async () => {
    const { broken, checked } = await verify(h);
    assert.equal(broken, null);
    assert.ok(checked >= 5, `${checked} entries`);
    const run = await cli();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`audit chain holds: ${checked} entries`));
  });

  it('finds a changed entry: its own hash fails', async () => {
    const { result, entries } = await tampered(h, async (knex, all) => {
      await knex('audit_entries')
        .where({ id: all[2].id })
        .update({ detail: JSON.stringify({ fields: ['nothing'] }) });
    });
    assert.equal(result.broken?.id, entries[2].id);
    assert.match(result.broken.reason, /changed/);
  });

  it('finds a changed entry whose hash was recomputed: the next one no longer follows it', async () => {
    const { result, entries } = await tampered(h, async (knex, all) => {
      const forged = { ...all[1], actor: 'someone else' };
      await knex('audit_entries')
        .where({ id: forged.id })
        .update({ actor: forged.actor, hash: hashOf(forged) });
    });
    assert.equal(result.broken?.id, entries[2].id);
  });

  it('finds a removed entry, in the middle and at the end', async () => {
    const middle = await tampered(h, async (knex, all) => void (await knex('audit_entries').where({ id: all[2].id }).delete()));
    assert.equal(middle.result.broken?.id, middle.entries[3].id);
    assert.match(middle.result.broken.reason, /removed, changed or inserted/);
    const last = await tampered(
      h,
      async (knex, all) =>
        void (await knex('audit_entries')
          .where({ id: all[all.length - 1].id })
          .delete()),
    );
    assert.equal(last.result.broken?.id, null);
    assert.match(last.result.broken.reason, /at the end/);
  });

  it('finds an inserted entry, even one chained with care after the last', async () => {
    const { result, entries } = await tampered(h, async (knex, all) => {
      const last = all[all.length - 1];
      const forged: ChainedFields = { ...last, id: last.id + 1, event_type: 'user_created', detail: '{}', prev_hash: last.hash };
      await knex('audit_entries').insert({ ...forged, hash: hashOf(forged) });
    });
    assert.equal(result.broken?.id, entries[entries.length - 1].id + 1, 'it lies past the head, which names the real last entry');
    assert.match(result.broken?.reason ?? '', /past the head/);
    const between = await tampered(h, async (knex, all) => {
      // Room made by moving the later entries up by one: the one put in its place does not follow its predecessor's successor.
      const at = all[2];
      await knex('audit_entries').where('id', '>=', at.id).delete();
      const moved = all.slice(2).map((e) => ({ ...e, id: e.id + 1 }));
      const forged: ChainedFields = { ...at, event_type: 'user_created', detail: '{}', prev_hash: all[1].hash };
      await knex('audit_entries').insert([{ ...forged, hash: hashOf(forged) }, ...moved]);
    });
    assert.equal(between.result.broken?.id, between.entries[2].id + 1);
  });

  it('holds over names the database cannot store as sent (half an emoji): hashed as they read back', async () => {
    const made = await h.api('POST', '/auth/keys', { token: h.adminToken, body: { name: 'half \ud83d', scopes: ['servers:read'] } });
    assert.equal(made.status, 201);
    assert.equal((await verify(h)).broken, null);
  });

  it('orders concurrent changes into one chain (the head row is locked on MySQL/MariaDB; SQLite writes one at a time)', async () => {
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        h.api('POST', '/auth/users', { token: h.adminToken, body: { username: `concurrent_${i}`, password: 'a-password-1' } }),
      ),
    );
    assert.deepEqual(
      made.map((r) => r.status),
      Array(12).fill(201),
    );
    const { broken } = await verify(h);
    assert.equal(broken, null);
  });

  it('exits 1 naming the first broken link', async () => {
    const entries = await withDatabase(h, rows);
    const target = entries[1];
    await withDatabase(h, (knex) => knex('audit_entries').where({ id: target.id }).update({ timestamp: '2000-01-01T00:00:00.000Z' }));
    try {
      const run = await cli();
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, new RegExp(`audit chain broken at entry ${target.id}: .*changed`));
      const json = await cli(['--json']);
      assert.equal(json.code, 1);
      assert.deepEqual(JSON.parse(json.stdout).broken.id, target.id);
    } finally {
      await withDatabase(h, (knex) => knex('audit_entries').where({ id: target.id }).update({ timestamp: target.timestamp }));
    }
    assert.equal((await verify(h)).broken, null);
  });

  it("still holds after retention pruning: the chain starts from the last pruned entry's hash", async () => {
    const entries = await withDatabase(h, rows);
    const cut = entries[3];
    const pruned = await withDatabase(h, (knex) =>
      new AuditRepository(knex).pruneBefore(new Date(Date.parse(cut.timestamp) + 1).toISOString()),
    );
    assert.ok(pruned >= 4, `${pruned} pruned`);
    const after = await verify(h);
    assert.equal(after.broken, null);
    assert.ok(after.anchorId >= 1);
    // New entries go on from the head.
    await h.api('POST', '/auth/users', { token: h.adminToken, body: { username: 'after_prune', password: 'a-password-1' } });
    assert.equal((await verify(h)).broken, null);
    const run = await cli();
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /after the pruned entry \d+/);
    // Removing the first kept entry is still found: it no longer follows the anchor.
    const { result } = await tampered(h, async (knex, all) => void (await knex('audit_entries').where({ id: all[0].id }).delete()));
    assert.ok(result.broken);
  });
});

describe('migration 020_global_audit', () => {
  it('keeps the per-server entries, chained, their server named, and history outlives its server', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'garrison-audit-migration-'));
    const mysql = onMysql ? await freshMysqlDatabase(process.env.GARRISON_TEST_DATABASE!) : null;
    const db = openDatabase(mysql?.url ?? null, dir);
    try {
      const migrations = migrationSource();
      const all = await migrations.getMigrations([]);
      const before = { ...migrations, getMigrations: async () => all.filter(([name]) => name < '020') };
      await db.knex.migrate.latest({ migrationSource: before });
      const stamp = '2026-11-01T10:00:00.000Z';
      const [serverId] = await db.knex('servers').insert({
        name: 'Old one',
        game_type: 'gamea',
        status: 'stopped',
        exe_path: '/opt/x.exe',
        game_port: 2302,
        rcon_port: 2305,
        created_at: stamp,
        updated_at: stamp,
      });
      const old = [
        {
          server_id: serverId,
          event_type: 'server_created',
          actor: 'admin',
          actor_kind: 'user',
          actor_id: '1',
          detail: '{"name":"Old one"}',
          timestamp: stamp,
        },
        {
          server_id: serverId,
          event_type: 'crashed',
          actor: null,
          actor_kind: 'system',
          actor_id: null,
          detail: '{"pid":5}',
          timestamp: '2026-11-01T11:00:00.000Z',
        },
      ];
      await db.knex('server_events').insert(old);
      await db.knex.migrate.latest({ migrationSource: migrations });
      const kept = await rows(db.knex);
      assert.deepEqual(
        kept.map((r) => [r.event_type, r.actor, r.detail, r.timestamp, r.server_id, r.target_kind, r.target_id, r.target_name]),
        [
          ['server_created', 'admin', '{"name":"Old one"}', stamp, serverId, 'server', String(serverId), 'Old one'],
          ['crashed', null, '{"pid":5}', '2026-11-01T11:00:00.000Z', serverId, 'server', String(serverId), 'Old one'],
        ],
      );
      assert.equal((await verifyChain(new AuditRepository(db.knex))).broken, null);
      assert.equal(await db.knex.schema.hasTable('server_events'), false);
      await db.knex('servers').where({ id: serverId }).delete();
      assert.equal((await rows(db.knex)).length, 2, 'no cascade from servers');
    } finally {
      await db.knex.destroy();
      await mysql?.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
