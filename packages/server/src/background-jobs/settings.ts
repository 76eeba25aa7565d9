import { declareSettings } from '../setting-specs.js';

export interface BackgroundJobSettings {
  /**
   * How often a node looks for queued jobs of its own it was not told of (a job queued on the node wakes
   * its worker at once); the sweep for jobs whose node died runs every SWEEP_POLLS of these.
   */
  backgroundJobPollMs: number;
}

/** Sweeps per poll: a dead node's jobs are failed within about half a minute by default. */
export const SWEEP_POLLS = 15;

// Set by tests only (a fake clock that moves by days would otherwise poll every 2 s of it).
export const backgroundJobSettings = declareSettings<BackgroundJobSettings>({
  feature: 'background-jobs',
  defaults: { backgroundJobPollMs: 2_000 },
  specs: [],
});
