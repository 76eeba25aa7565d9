import type { Logger } from 'pino';
import { settlesWithin, type Clock } from '../jobs/clock.js';

/** How long the service's stop waits for work the supervisor began by itself (a crash, an auto-restart). */
const SETTLE_MS = 10_000;

/**
 * Work the supervisor starts by itself, outside any request: its failure is logged, never left as an
 * unhandled rejection, and the service's stop waits for it before the database closes.
 */
export class Background {
  private readonly tasks = new Set<Promise<void>>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly closing: () => boolean,
  ) {}

  run(serverId: number, what: string, task: () => Promise<void>): void {
    const run = task().catch((err) => {
      if (this.closing()) this.logger.debug({ serverId, err: (err as Error).message }, `${what} cut short by the service stopping`);
      else this.logger.error({ serverId, err }, `${what} failed`);
    });
    this.tasks.add(run);
    void run.finally(() => this.tasks.delete(run));
  }

  async settle(): Promise<void> {
    if (!(await settlesWithin(this.clock, Promise.all(this.tasks), SETTLE_MS)))
      this.logger.warn({ pending: this.tasks.size }, 'stopping while supervision work is still under way');
  }
}
