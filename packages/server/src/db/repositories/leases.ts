import type { Knex } from 'knex';
import { DatabaseClock } from '../database-clock.js';

/** Narrows a write to land only while a lease is still held (see LeaseRepository.fence). */
export type Fence = (query: Knex.QueryBuilder) => Knex.QueryBuilder;

/** A lease as held: by whom, and the fencing token of this holding. */
export interface Holding {
  name: string;
  holder: string;
  token: number;
}

/**
 * The leases table: work that must happen once in a cluster is done under a lease. Taking one is a
 * single conditional UPDATE by the database's clock (the holder's own, or an expired one); every change
 * of holder moves the fencing token on, and a write made under a lease carries its token (`fenced`), so
 * that a holder that paused past its lease cannot write after another took over.
 */
export class LeaseRepository {
  private readonly clock: DatabaseClock;

  constructor(private readonly knex: Knex) {
    this.clock = new DatabaseClock(knex);
  }

  /** The holding, or null when another holds the lease and it has not expired. */
  async acquire(name: string, holder: string, ttlMs: number): Promise<Holding | null> {
    await this.knex('leases')
      .insert({ name, holder: null, token: 0, expires_at: this.clock.now(-1000) })
      .onConflict('name')
      .ignore();
    // `token` first: MySQL evaluates SET left to right, each seeing the ones before.
    const taken = await this.knex('leases')
      .where({ name })
      .andWhere((q) => {
        q.where({ holder }).orWhere('expires_at', '<', this.clock.now());
      })
      .update({
        token: this.knex.raw('CASE WHEN holder = ? THEN token ELSE token + 1 END', [holder]),
        holder,
        expires_at: this.clock.now(ttlMs),
      });
    if (!taken) return null;
    const row: { token: number | string } | undefined = await this.knex('leases').select('token').where({ name, holder }).first();
    return row ? { name, holder, token: Number(row.token) } : null;
  }

  /** Lets the lease go at once (a clean stop), if still held with this token. */
  async release(holding: Holding): Promise<void> {
    await this.knex('leases')
      .where({ name: holding.name, holder: holding.holder, token: holding.token })
      .update({ expires_at: this.clock.now(-1000) });
  }

  /** Narrows a write to land only while this holding is still current. */
  fence(holding: Holding): Fence {
    return (query) =>
      query.whereExists((q) => {
        q.select(this.knex.raw('1'))
          .from('leases')
          .where({ name: holding.name, holder: holding.holder, token: holding.token })
          .andWhere('expires_at', '>', this.clock.now());
      });
  }
}
