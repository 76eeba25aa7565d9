import type { CacheRules } from './rule.js';

/**
 * The background jobs a panel follows (`job:`): their progress is applied from the `job_progress` events;
 * the job is read again when one says it ended (for its error and log).
 */
export const jobRules: CacheRules = {
  serverKeys: ['job:'],
  live: [
    {
      on: ['job_progress'],
      keys: ['job:'],
      appliedLive: (_, data) => ['queued', 'running'].includes((data as { status: string }).status),
    },
  ],
};
