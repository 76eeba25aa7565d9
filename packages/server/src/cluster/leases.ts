import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { Fence } from '../db/repositories/leases.js';

/**
 * Work that must run once in the whole cluster (retention pruning, the daily database copy): each
 * instance's job tries the lease when its time comes; the holder of a live lease (or the first to find
 * it expired) does the work, the others skip. The lease spans the job's period and stays with its
 * holder, renewed at each of its runs; if the holder dies, the next instance whose job comes round
 * after the lease ran out takes over. The work's writes carry the holding's fencing token.
 */
@injectable()
export class ClusterLeases {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Runs `work` if this instance holds or takes the lease `name` for `ttlMs`; false when another holds it. */
  async once(name: string, ttlMs: number, work: (fence: Fence) => Promise<unknown>): Promise<boolean> {
    const holding = await this.repos.leases.acquire(name, this.nodeId, ttlMs);
    if (!holding) {
      this.logger.debug({ lease: name }, 'another instance holds the lease of this work');
      return false;
    }
    await work(this.repos.leases.fence(holding));
    return true;
  }
}
