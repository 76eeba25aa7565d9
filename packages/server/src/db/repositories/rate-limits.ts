import type { Knex } from 'knex';
import type { Fence } from './leases.js';

/** The cluster's shared rate-limit counters (rate-limiter-flexible's MySQL store writes them itself). */
export class RateLimitRepository {
  static readonly TABLE = 'rate_limits';

  constructor(private readonly knex: Knex) {}

  /** Counters whose window ended before `epochMs` (the library's own stamps: epoch milliseconds). */
  pruneExpiredBefore(epochMs: number, fence: Fence): Promise<number> {
    return fence(this.knex(RateLimitRepository.TABLE).where('expire', '<', epochMs)).delete();
  }
}
