import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { SYSTEM_ACTOR, ifApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { SupervisorSettings } from './settings.js';
import type { JobRunner } from '../jobs/runner.js';
import { ServerService } from '../servers/service.js';
import { ServerLocks } from '../servers/locks.js';
import { ServerStates } from './status.js';

/**
 * The auto-restart of crashed servers: with `auto_restart` on and restarts left, the server is started
 * again after a back-off of 2 s, doubling per restart up to 60 s, as a delayed job (a manual action
 * meanwhile cancels it).
 */
/** The wait before restart number `restartCount + 1`: 2 s, doubling per restart, at most 60 s (the settings'). */
export const restartBackoffMs = (settings: Pick<SupervisorSettings, 'restartBackoffMs' | 'restartBackoffMaxMs'>, restartCount: number) =>
  Math.min(settings.restartBackoffMs * 2 ** restartCount, settings.restartBackoffMaxMs);

const PREFIX = 'supervisor.restart:';
const jobName = (serverId: number) => `${PREFIX}${serverId}`;

@injectable()
export class AutoRestarts {
  private stopped = false;
  /** Restarts under way: the service's stop waits for them, so a game spawned meanwhile is recorded before the database closes. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: SupervisorSettings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(ServerStates) private readonly states: ServerStates,
  ) {}

  /** Plans the restart of a crashed server; `start` runs under the server's lock. */
  async schedule(serverId: number, start: () => Promise<unknown>): Promise<void> {
    // Deleted meanwhile: nothing to restart; a database failure is the caller's to log.
    const row = await this.servers.row(serverId).catch(ifApiError('NOT_FOUND', null));
    if (!row || !row.auto_restart || row.restart_count >= row.max_restarts || this.stopped) return;
    const wait = restartBackoffMs(this.settings, row.restart_count);
    // A job of the same name replaces the one planned before.
    this.jobs.after(jobName(serverId), wait, () =>
      this.track(
        this.locks.run(serverId, async () => {
          const current = await this.servers.row(serverId).catch(ifApiError('NOT_FOUND', null));
          if (!current || current.status !== 'crashed' || this.stopped) return; // someone acted meanwhile
          const attempt = current.restart_count + 1;
          await this.states.transition(
            serverId,
            {},
            { restart_count: attempt },
            {
              announce: false, // the start announces it
              entry: { type: 'auto_restart', actor: SYSTEM_ACTOR, detail: { attempt, max_restarts: current.max_restarts, after_ms: wait } },
            },
          );
          try {
            await start();
          } catch (err) {
            this.logger.warn({ serverId, err: (err as Error).message }, 'auto-restart failed');
            await this.states.set(
              serverId,
              { status: 'error' },
              { type: 'start_failed', actor: SYSTEM_ACTOR, detail: { reason: (err as Error).message, attempt } },
            );
          }
        }),
      ),
    );
  }

  private track<T>(run: Promise<T>): Promise<T> {
    this.inFlight.add(run);
    // Its failure is the job runner's to log (the run is what the job returns): here only its end counts.
    void Promise.allSettled([run]).then(() => this.inFlight.delete(run));
    return run;
  }

  cancel(serverId: number): void {
    this.jobs.cancel(jobName(serverId));
  }

  /** No restart is planned any more; one under way finishes (its failure is its job's to log). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.jobs.cancelAll(PREFIX);
    await Promise.allSettled([...this.inFlight]);
  }
}
