import { inject, injectable } from 'tsyringe';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TOKENS } from '../tokens.js';
import type { ClusterSettings } from './settings.js';
import type { DatabaseAccess } from '../db/access.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Clock } from '../jobs/clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { isCluster } from './mode.js';
import { ClusterLeases } from './leases.js';

const RATE_LIMIT_WINDOW_SECONDS = 60;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The rate limits' counters: in memory for a single instance; in a cluster in the shared database
 * (rate-limiter-flexible's MySQL store, over the service's own connection pool), so that a client
 * spreading its requests over the instances meets one limit. Should the database not answer, each
 * instance falls back to counting in its own memory rather than refusing everyone.
 */
@injectable()
export class RateLimits implements Lifecycle {
  private job: Job | null = null;

  constructor(
    @inject(TOKENS.Settings) private readonly settings: ClusterSettings,
    @inject(TOKENS.DatabaseAccess) private readonly db: DatabaseAccess,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(ClusterLeases) private readonly leases: ClusterLeases,
  ) {}

  /** A limiter of `points` a window, counted under `name`; null when the limit is off (0). */
  limiter(name: string, points: number): RateLimiterAbstract | null {
    if (points <= 0) return null;
    const memory = new RateLimiterMemory({ points, duration: RATE_LIMIT_WINDOW_SECONDS, keyPrefix: name });
    if (!isCluster(this.settings)) return memory;
    return this.db.sharedRateLimiter({ keyPrefix: name, points, duration: RATE_LIMIT_WINDOW_SECONDS, insuranceLimiter: memory });
  }

  start(): void {
    if (!isCluster(this.settings)) return;
    // The library stamps its rows with the hosts' clocks; an hour's margin covers any sane skew.
    this.job = this.jobs.every({
      name: 'rate-limits.prune',
      everyMs: PRUNE_EVERY_MS,
      run: async () =>
        void (await this.leases.once('rate-limits.prune', PRUNE_EVERY_MS, (fence) =>
          this.repos.rateLimits.pruneExpiredBefore(this.clock.now() - 3_600_000, fence),
        )),
    });
  }

  stop(): void {
    this.job?.cancel();
  }
}
