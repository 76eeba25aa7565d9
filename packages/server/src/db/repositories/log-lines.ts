import type { Knex } from 'knex';
import type { LogLevel } from '@garrison/core';
import { whereContains } from '../text-search.js';

export interface LogLineRow {
  id: number;
  timestamp: string;
  level: LogLevel;
  message: string;
}

const INSERT_CHUNK = 200;

/** The log_lines table: the stored game log of each server. */
export class LogLineRepository {
  constructor(private readonly knex: Knex) {}

  async insert(serverId: number, lines: Omit<LogLineRow, 'id'>[]): Promise<void> {
    const rows = lines.map((l) => ({ server_id: serverId, ...l }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await this.knex('log_lines').insert(rows.slice(i, i + INSERT_CHUNK));
  }

  async pruneBefore(cutoff: string): Promise<void> {
    await this.knex('log_lines').where('timestamp', '<', cutoff).delete();
  }

  /** Keeps the newest `keep` lines of the server. */
  async keepNewest(serverId: number, keep: number): Promise<void> {
    const boundary = await this.knex('log_lines').where('server_id', serverId).orderBy('id', 'desc').offset(keep).first('id');
    if (boundary) await this.knex('log_lines').where('server_id', serverId).andWhere('id', '<=', boundary.id).delete();
  }

  async page(
    serverId: number,
    query: { limit: number; offset: number; level?: LogLevel; since?: string; search?: string },
  ): Promise<{ total: number; rows: LogLineRow[] }> {
    const base = this.knex('log_lines').where('server_id', serverId);
    if (query.level) base.andWhere('level', query.level);
    if (query.since) base.andWhere('timestamp', '>=', query.since);
    if (query.search) whereContains(base, 'message', query.search);
    const [{ count }] = await base.clone().count({ count: '*' });
    const rows = await base
      .clone()
      .select('id', 'timestamp', 'level', 'message')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset);
    return { total: Number(count), rows: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  }

  async clear(serverId: number, trx?: Knex.Transaction): Promise<number> {
    return (trx ?? this.knex)('log_lines').where('server_id', serverId).delete();
  }
}
