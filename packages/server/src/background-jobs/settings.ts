import { declareSettings, integer } from '../setting-specs.js';

export interface BackgroundJobSettings {
  /**
   * How often a node looks for queued jobs of its own it was not told of (a job queued on the node wakes
   * its worker at once); the sweep for jobs whose node died runs every SWEEP_POLLS of these.
   */
  backgroundJobPollMs: number;
  /** How long a job may wait queued: past it, the sweep fails it JOB_EXPIRED (no node of its kind ran it). */
  jobQueueHours: number;
}

/** Sweeps per poll: a dead node's jobs are failed within about half a minute by default. */
export const SWEEP_POLLS = 15;

// backgroundJobPollMs is set by tests only (a fake clock that moves by days would otherwise poll every 2 s of it).
export const backgroundJobSettings = declareSettings<BackgroundJobSettings>({
  feature: 'background-jobs',
  defaults: { backgroundJobPollMs: 2_000, jobQueueHours: 24 },
  specs: [
    {
      key: 'jobQueueHours',
      env: 'GARRISON_JOB_QUEUE_HOURS',
      meaning: 'hours a background job may wait queued before it fails JOB_EXPIRED (its node gone, or running no such job)',
      doc: {
        meaning:
          'hours a background job (an install, a download) may wait queued; past them it fails `JOB_EXPIRED`: its node is gone ' +
          'for good, or runs no job of its kind (docs/operations.md, Background jobs)',
      },
      parse: integer(1, 24 * 30),
    },
  ],
});
