import type { Knex } from 'knex';
import type { Ban } from '@garrison/core';

/** Where a ban's line stands in the game's ban file. */
export type FileState = 'add' | 'ok' | 'remove' | 'none';

/** What a pass over the ban file needs of a ban. */
export interface FileBanRow {
  id: number;
  source: 'api' | 'file';
  file_state: FileState;
  /** The line as last written or found, when there is one. */
  file_line: string | null;
  /** Who is banned: the value of the identity (the column keeps the API's name)… */
  guid: string;
  /** …and its kind. */
  ban_type: string;
  reason: string;
  expires_at: string | null;
}

export interface RowChange {
  id: number;
  file_state: FileState;
  file_line: string | null;
  /** False when the ban ends with this pass (revoked, expired, or taken out of the file by someone else). */
  active: boolean;
}

/** A ban and where its line stands in the game's ban file. */
export interface BanRow extends Ban {
  active: boolean;
  file_state: FileState;
  file_line: string | null;
}

export type NewBanRow = Omit<BanRow, 'id'>;

/** The bans table: every query the ban service runs, in one place. */
export class BanRepository {
  constructor(private readonly knex: Knex) {}

  private get table() {
    return this.knex<BanRow>('bans');
  }

  /** Bans in force: not revoked, not past their expiry. */
  private whereInForce<Q extends Knex.QueryBuilder>(query: Q, now: Date): Q {
    return query.where('active', true).andWhere((q) => {
      q.whereNull('expires_at').orWhere('expires_at', '>', now.toISOString());
    }) as Q;
  }

  async list(serverId: number, page: { limit: number; offset: number; inForceOnly: boolean }, now: Date): Promise<BanRow[]> {
    const query = this.table.clone().where('server_id', serverId);
    if (page.inForceOnly) this.whereInForce(query, now);
    return (await query.orderBy('id').limit(page.limit).offset(page.offset)).map(toBan);
  }

  async insert(row: NewBanRow, trx?: Knex.Transaction): Promise<number> {
    const [id] = await (trx ?? this.knex)<BanRow>('bans').insert(row);
    return Number(id);
  }

  async find(serverId: number, banId: number): Promise<BanRow | undefined> {
    const row = await this.table.clone().where({ id: banId, server_id: serverId }).first();
    return row && toBan(row);
  }

  /**
   * Ends a ban, and marks its line, if it has one, to be taken out of the file: in one statement, so that
   * a pass over the file never sees the ban ended with its line still claimed by nobody.
   */
  async revoke(banId: number, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)<BanRow>('bans')
      .where({ id: banId })
      .update({
        active: false,
        file_state: this.knex.raw("CASE WHEN file_state IN ('add', 'ok') THEN 'remove' ELSE file_state END") as unknown as FileState,
      });
  }

  /** The bans a pass over the ban file deals with: those in force, and those whose line is still to move. */
  async fileRows(serverId: number): Promise<FileBanRow[]> {
    return this.table
      .clone()
      .where('server_id', serverId)
      .andWhere((q) => {
        q.where('active', true).orWhereIn('file_state', ['add', 'remove']);
      })
      .whereNot('file_state', 'none')
      .orderBy('id')
      .select('id', 'source', 'file_state', 'file_line', 'guid', 'ban_type', 'reason', 'expires_at');
  }

  /** Servers with work for the ban file: lines to add or remove, or Garrison's own timed bans run out. */
  async serversWithPendingLines(now: Date): Promise<number[]> {
    const rows = await this.table
      .clone()
      .whereIn('file_state', ['add', 'remove'])
      .orWhere((q) => {
        q.where({ source: 'api', active: true, file_state: 'ok' })
          .whereNotNull('expires_at')
          .andWhere('expires_at', '<=', now.toISOString());
      })
      .distinct('server_id');
    return rows.map((r) => Number(r.server_id));
  }

  /** What one pass decided, in one transaction (`trx`, with the pass's audit entry): the bans' new states and those found in the file. */
  async applyPass(serverId: number, changes: RowChange[], found: NewBanRow[], trx: Knex.Transaction): Promise<void> {
    for (const change of changes) {
      const { id, ...fields } = change;
      await trx('bans').where({ id, server_id: serverId }).update(fields);
    }
    // A statement per chunk: a file may bring hundreds of bans at once.
    for (let i = 0; i < found.length; i += IMPORT_CHUNK) await trx('bans').insert(found.slice(i, i + IMPORT_CHUNK));
  }
}

const IMPORT_CHUNK = 200;

// SQLite and MariaDB hand booleans back as 0/1.
const toBan = (row: BanRow): BanRow => ({ ...row, active: Boolean(row.active) });
