import { inject, injectable } from 'tsyringe';
import type { Actor, AdapterDefinition, ScheduleStep } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Clock } from '../../jobs/clock.js';
import type { ScheduleActionHandler, StepOutcome } from '../../schedules/action-registry.js';
import { BackgroundJobService } from '../../background-jobs/service.js';
import { jobDone } from '../../background-jobs/job-end.js';
import { WorkshopUpdateCheck } from './update-check.js';
import { WorkshopDownloads } from './downloads.js';

/**
 * The schedule action `update_mods`: at its step, the server's Workshop items checked with Steam; none
 * outdated, and the run ends there (no countdown, no restart); else the outdated ones downloaded and
 * installed while the server runs (the job of POST …/workshop/update), and once they are in, the run goes
 * on to its warnings and its restart, which loads them.
 */
@injectable()
export class UpdateModsAction implements ScheduleActionHandler {
  constructor(
    @inject(WorkshopUpdateCheck) private readonly check: WorkshopUpdateCheck,
    @inject(WorkshopDownloads) private readonly downloads: WorkshopDownloads,
    @inject(BackgroundJobService) private readonly jobs: BackgroundJobService,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  problem(step: ScheduleStep, adapter: AdapterDefinition, at: string): string | null {
    if (!adapter.steam?.workshop_app_id) return `${at}: this game has no Steam Workshop`;
    const extra = Object.keys(step.payload ?? {})[0];
    return extra === undefined ? null : `${at}.payload.${extra}: update_mods takes no payload`;
  }

  async perform(serverId: number, _step: ScheduleStep, actor: Actor, signal: AbortSignal): Promise<StepOutcome> {
    await this.check.run(serverId);
    const queued = await this.downloads.update(serverId, actor);
    if (Array.isArray(queued)) return { abort: 'nothing to update: every Workshop item is up to date' };
    await jobDone(this.jobs, this.clock, queued.job_id, signal, 'the download of the outdated Workshop items');
    return { done: true };
  }
}
