import type { Knex } from 'knex';

interface QueryEvent {
  method?: string;
  sql?: string;
  __knexUid?: string;
  __knexTxId?: string;
}

/** The table a statement that knex built writes to; null when it cannot be told (raw SQL, DDL). */
function writtenTable(sql: string): string | null {
  const match = /^\s*(?:insert\s+(?:ignore\s+)?into|update|delete\s+from|replace\s+into)\s+[`"]?(\w+)[`"]?/i.exec(sql);
  return match ? match[1].toLowerCase() : null;
}

const ANY_TABLE = '*';

/**
 * What a cache of database reads needs to stay correct: a version per table that changes whenever a
 * write to it may have become visible, and whether a write to it is under way. It watches every
 * statement this process's knex runs, so no write path can forget to report itself:
 *
 * - a write outside a transaction counts from its start to its answer;
 * - a write inside a transaction counts until the transaction's connection goes back to the pool, which
 *   is after its COMMIT or ROLLBACK has finished, so a read on another connection cannot cache what the
 *   transaction is about to replace;
 * - a write whose table cannot be told from its SQL (raw SQL, DDL) counts as a write to every table.
 *
 * A reader takes `stamp(tables)` before reading and keeps its result only if the same stamp comes back
 * after: a null stamp (a write under way) or a changed one means the result may already be old.
 */
export class TableVersions {
  private readonly versions = new Map<string, number>();
  private readonly writing = new Map<string, number>();
  /** Tables written by each open transaction, by its connection. */
  private readonly transactions = new Map<string, Set<string>>();

  /** Versions kept from the queries of `knex` on. */
  static watching(knex: Knex): TableVersions {
    const versions = new TableVersions();
    versions.watch(knex);
    return versions;
  }

  private watch(knex: Knex): void {
    knex.on('query', (query: QueryEvent) => this.started(query));
    knex.on('query-response', (_response: unknown, query: QueryEvent) => this.finished(query));
    knex.on('query-error', (_error: unknown, query: QueryEvent) => this.finished(query));
    // tarn's pool: a connection comes back after its transaction ended, or is destroyed after a failure.
    const pool = (knex.client as { pool?: { on(event: string, listener: (connection: { __knexUid?: string }) => void): void } }).pool;
    pool?.on('release', (connection) => this.released(connection.__knexUid));
    pool?.on('destroyRequest', (connection) => this.released(connection.__knexUid));
  }

  /** The combined version of these tables, or null while a write to one of them is under way. */
  stamp(tables: readonly string[]): number | null {
    let stamp = this.versions.get(ANY_TABLE) ?? 0;
    if (this.writing.get(ANY_TABLE)) return null;
    for (const table of tables) {
      if (this.writing.get(table)) return null;
      stamp += this.versions.get(table) ?? 0;
    }
    return stamp;
  }

  private started(query: QueryEvent): void {
    const table = this.tableOf(query);
    if (!table) return;
    const open = query.__knexTxId && query.__knexUid ? this.transactionOf(query.__knexUid) : undefined;
    if (open) {
      if (open.has(table)) return this.bump(table);
      open.add(table);
    }
    this.begin(table);
  }

  private finished(query: QueryEvent): void {
    const table = this.tableOf(query);
    // A transaction's writes stay under way until its connection is released.
    if (table && !query.__knexTxId) this.end(table);
  }

  private released(uid: string | undefined): void {
    const tables = uid && this.transactions.get(uid);
    if (!tables) return;
    this.transactions.delete(uid);
    for (const table of tables) this.end(table);
  }

  private tableOf(query: QueryEvent): string | null {
    const sql = query.sql ?? '';
    if (query.method === 'select' || query.method === 'first' || query.method === 'pluck') return null;
    if (/^\s*(?:BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SELECT|PRAGMA|SHOW|SET)\b/i.test(sql)) return null;
    return writtenTable(sql) ?? ANY_TABLE;
  }

  private transactionOf(uid: string): Set<string> {
    let tables = this.transactions.get(uid);
    if (!tables) this.transactions.set(uid, (tables = new Set()));
    return tables;
  }

  private begin(table: string): void {
    this.writing.set(table, (this.writing.get(table) ?? 0) + 1);
    this.bump(table);
  }

  private end(table: string): void {
    this.writing.set(table, Math.max(0, (this.writing.get(table) ?? 0) - 1));
    this.bump(table);
  }

  private bump(table: string): void {
    this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
  }
}
