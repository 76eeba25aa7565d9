import { inject, injectable } from 'tsyringe';
import type { Actor, AdapterDefinition, ScheduleStep } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Clock } from '../../jobs/clock.js';
import type { ScheduleActionHandler, StepOutcome } from '../../schedules/action-registry.js';
import { BackgroundJobService } from '../../background-jobs/service.js';
import { jobDone } from '../../background-jobs/job-end.js';
import { readAppManifest } from '../app-manifest.js';
import { InstallService } from './service.js';

/** A schedule asks Steam anew when the answer it has is older than this (the console's reads keep theirs longer). */
const FRESH_MS = 10 * 60_000;

/**
 * The schedule action `update_server`: at its step, whether Steam has a newer build of the installed branch;
 * none, and the run ends there (no countdown, no restart); one, and the run goes on to its warnings and its
 * `restart`, which installs it between the stop and the start (a server's files are replaced while it is
 * down: the install job refuses a running server).
 */
@injectable()
export class UpdateServerAction implements ScheduleActionHandler {
  constructor(
    @inject(InstallService) private readonly installs: InstallService,
    @inject(BackgroundJobService) private readonly jobs: BackgroundJobService,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  problem(step: ScheduleStep, adapter: AdapterDefinition, at: string): string | null {
    if (!adapter.steam) return `${at}: this game is not installed through Steam`;
    const extra = Object.keys(step.payload ?? {})[0];
    return extra === undefined ? null : `${at}.payload.${extra}: update_server takes no payload`;
  }

  async perform(serverId: number): Promise<StepOutcome> {
    const { steam } = await this.installs.target(serverId);
    const state = await this.installs.state(serverId, FRESH_MS);
    if (state.build_id === null)
      throw new Error('no installed build to compare: install the server through Garrison first (its app manifest is missing)');
    if (state.update_available === null)
      throw new Error(`Steam's newest build of branch ${state.branch} is not known now (SteamCMD busy or failing)`);
    if (!state.update_available) return { abort: `the server is up to date (build ${state.build_id} of branch ${state.branch})` };
    if (steam.branches.find((b) => b.name === state.branch)?.password_required)
      throw new Error(`branch ${state.branch} is protected by a password, which a schedule does not keep: update it from the console`);
    return { done: true };
  }

  async whileStopped(serverId: number, _step: ScheduleStep, actor: Actor, signal: AbortSignal): Promise<void> {
    const { appId, installDir } = await this.installs.target(serverId);
    const branch = (await readAppManifest(installDir, appId))?.branch ?? 'public';
    const { job_id } = await this.installs.request(serverId, { branch }, actor);
    await jobDone(this.jobs, this.clock, job_id, signal, 'the update of the server');
  }
}
