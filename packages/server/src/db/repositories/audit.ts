import type { Knex } from 'knex';
import type { ActorKind, AuditEntry, AuditEventType, AuditListQuery, AuditTargetKind } from '@garrison/core';
import type { Fence } from './leases.js';
import { hashOf, type ChainedFields, type ChainHead } from '../../audit/chain.js';

/** An entry to write: what the service says; the id, `prev_hash` and `hash` come from the chain. */
type NewAuditEntry = Omit<AuditEntry, 'id' | 'prev_hash' | 'hash'>;

/** `GET /audit`'s filters (its query without the paging and the format), times as the trail stores them (ISO 8601 UTC). */
export type AuditFilter = Omit<AuditListQuery, 'limit' | 'offset' | 'format'>;

/** An entry as stored: the form its hash covers. */
export type StoredAuditEntry = ChainedFields & { hash: string };

const TABLE = 'audit_entries';
const HEAD = 'audit_head';
const BATCH = 500;

const toEntry = (row: StoredAuditEntry): AuditEntry => ({
  ...row,
  event_type: row.event_type as AuditEventType,
  actor_kind: row.actor_kind as ActorKind,
  target_kind: row.target_kind as AuditTargetKind,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
});

/** A lone UTF-16 surrogate (half an emoji, cut or sent on purpose): no database stores it as it is. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The entry's text as the database will give it back (a lone surrogate as U+FFFD), before it is hashed:
 * otherwise a name with half an emoji would read back unlike what was hashed, and the chain would seem broken.
 */
function wellFormed<T extends object>(entry: T): T {
  const fields = Object.entries(entry).map(([k, v]) => [k, typeof v === 'string' ? v.replace(LONE_SURROGATE, '\uFFFD') : v]);
  return Object.fromEntries(fields) as T;
}

/**
 * The audit trail (`audit_entries`) and its chain's head (`audit_head`, one row). Entries are appended only
 * in the transaction of the change they record; the head row is read with a lock, so that one chain
 * orders the writers of every instance.
 */
export class AuditRepository {
  constructor(private readonly knex: Knex) {}

  private get sqlite(): boolean {
    return this.knex.client.config.client === 'better-sqlite3';
  }

  /**
   * Appends an entry after the last one. MySQL/MariaDB: `SELECT … FOR UPDATE` on the head row makes
   * every other writer wait until this transaction ends. SQLite: a write transaction is the only one
   * (one connection, and the database's own write lock).
   */
  async append(trx: Knex.Transaction, entry: NewAuditEntry): Promise<AuditEntry> {
    const headQuery = trx(HEAD).where({ id: 1 }).first();
    const head = (await (this.sqlite ? headQuery : headQuery.forUpdate())) as ChainHead;
    const stored: ChainedFields = {
      id: head.last_id + 1,
      ...wellFormed(entry),
      detail: JSON.stringify(entry.detail),
      prev_hash: head.last_hash,
    };
    const row: StoredAuditEntry = { ...stored, hash: hashOf(stored) };
    await trx(TABLE).insert(row);
    await trx(HEAD).where({ id: 1 }).update({ last_id: row.id, last_hash: row.hash });
    return toEntry(row);
  }

  async head(): Promise<ChainHead> {
    return (await this.knex(HEAD).select('last_id', 'last_hash', 'anchor_id', 'anchor_hash').where({ id: 1 }).first()) as ChainHead;
  }

  private filtered(filter: AuditFilter): Knex.QueryBuilder {
    const q = this.knex(TABLE);
    if (filter.actor !== undefined) q.where('actor', filter.actor);
    if (filter.actor_kind !== undefined) q.where('actor_kind', filter.actor_kind);
    if (filter.server_id !== undefined) q.where('server_id', filter.server_id);
    if (filter.target_kind !== undefined) q.where('target_kind', filter.target_kind);
    if (filter.event_type !== undefined) q.where('event_type', filter.event_type);
    if (filter.since !== undefined) q.where('timestamp', '>=', filter.since);
    if (filter.until !== undefined) q.where('timestamp', '<', filter.until);
    return q;
  }

  /** Newest first. */
  async page(filter: AuditFilter, page: { limit: number; offset: number }): Promise<{ total: number; entries: AuditEntry[] }> {
    const base = this.filtered(filter);
    const [counted, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first() as Promise<{ n: number | string }>,
      base.clone().select('*').orderBy('id', 'desc').limit(page.limit).offset(page.offset) as Promise<StoredAuditEntry[]>,
    ]);
    return { total: Number(counted.n), entries: rows.map(toEntry) };
  }

  /**
   * Every stored entry matching `filter`, oldest first, read in batches by id: memory stays bounded
   * however long the trail, and no connection is held between batches (SQLite has one).
   */
  async *stored(filter: AuditFilter = {}): AsyncGenerator<StoredAuditEntry> {
    for (let after = 0; ;) {
      const rows = (await this.filtered(filter).select('*').where('id', '>', after).orderBy('id').limit(BATCH)) as StoredAuditEntry[];
      for (const row of rows) yield row;
      if (rows.length < BATCH) return;
      after = rows[rows.length - 1].id;
    }
  }

  async *entries(filter: AuditFilter): AsyncGenerator<AuditEntry> {
    for await (const row of this.stored(filter)) yield toEntry(row);
  }

  /**
   * Drops the oldest entries, up to the first written at or after `cutoff` (a prefix: the chain stays
   * whole), and keeps the hash of the last one dropped as the anchor that the first kept entry follows.
   * `fence`: lands only while the lease the pruning runs under is still held.
   */
  async pruneBefore(cutoff: string, fence: Fence = (q) => q): Promise<number> {
    // The common case, hour after hour: nothing old enough, one query and no lock on the chain's head.
    if (!(await this.knex(TABLE).select('id').where('timestamp', '<', cutoff).first())) return 0;
    return this.knex.transaction(async (trx) => {
      const headQuery = trx(HEAD).where({ id: 1 }).first();
      const head = (await (this.sqlite ? headQuery : headQuery.forUpdate())) as ChainHead;
      const firstKept = (await trx(TABLE).where('timestamp', '>=', cutoff).min({ id: 'id' }).first()) as { id: number | null } | undefined;
      const lastDropped = (await trx(TABLE)
        .select('id', 'hash')
        .where('id', '<', firstKept?.id ?? head.last_id + 1)
        .orderBy('id', 'desc')
        .first()) as { id: number; hash: string } | undefined;
      if (!lastDropped) return 0;
      const anchored = await fence(trx(HEAD).where({ id: 1 })).update({ anchor_id: lastDropped.id, anchor_hash: lastDropped.hash });
      if (!anchored) return 0;
      return Number(await trx(TABLE).where('id', '<=', lastDropped.id).delete());
    });
  }
}
