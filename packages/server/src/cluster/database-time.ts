import { inject, injectable } from 'tsyringe';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Clock } from '../jobs/clock.js';

/**
 * The database's time as this host reckons it, for what instances must agree on without a query each
 * time (a forwarded request's stamp): the offset of the database's clock from this host's, measured at
 * start and at each heartbeat. Two hosts whose clocks differ by an hour still agree on it to within
 * their round trips to the database.
 */
@injectable()
export class DatabaseTime {
  private offsetMs = 0;

  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
  ) {}

  async measure(): Promise<void> {
    const before = this.clock.now();
    const database = await this.repos.nodes.databaseTime();
    this.offsetMs = database - (before + this.clock.now()) / 2;
  }

  /** Milliseconds since the epoch by the database's clock. */
  now(): number {
    return Math.round(this.clock.now() + this.offsetMs);
  }
}
