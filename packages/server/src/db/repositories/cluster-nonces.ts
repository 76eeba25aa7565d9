import type { Knex } from 'knex';
import type { Fence } from './leases.js';
import { isUniqueViolation } from '../errors.js';

export class ClusterNonceRepository {
  constructor(private readonly knex: Knex) {}

  /** Notes a nonce; false when it was noted before (a replayed hop). */
  async first(nonce: string, stampedAt: number): Promise<boolean> {
    try {
      await this.knex('cluster_nonces').insert({ nonce, stamped_at: stampedAt });
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async pruneBefore(stampedAt: number, fence: Fence = (q) => q): Promise<number> {
    return fence(this.knex('cluster_nonces').where('stamped_at', '<', stampedAt)).delete();
  }
}
