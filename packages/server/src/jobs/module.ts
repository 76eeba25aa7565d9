import { TOKENS } from '../tokens.js';
import type { FeatureModule } from '../modules/feature-module.js';

/** The job runner: every module with repeated work needs it, so it starts first and stops last, waiting for the runs under way. */
export const jobsModule: FeatureModule = {
  name: 'jobs',
  parts: (c) => [['jobs', { stop: () => c.resolve(TOKENS.Jobs).stop() }]],
};
