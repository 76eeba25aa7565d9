import { jobEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { BackgroundJobRepository } from '../db/repositories/background-jobs.js';
import { backgroundJobsTable } from './migration.js';
import { leaseByDatabaseTime, queueDeadline } from '../db/migrations/background-jobs.js';
import { JobExecutors } from './executors.js';
import { BackgroundJobService } from './service.js';
import { BackgroundJobWorker } from './worker.js';
import { jobRoutes } from './routes.js';
import { backgroundJobSettings, SWEEP_POLLS, type BackgroundJobSettings } from './settings.js';
import { TOKENS } from '../tokens.js';

const repositories = { backgroundJobs: BackgroundJobRepository };

/**
 * Background jobs (an install, a download): queued, run by the owning node's worker one at a time, followed
 * over `GET /jobs/{id}` and `job_progress` events. Not the periodic jobs of jobs/: those run its sweep.
 */
export const backgroundJobsModule: FeatureModule<typeof repositories, BackgroundJobSettings> = {
  name: 'background-jobs',
  settings: backgroundJobSettings,
  // It records and tells webhooks of failures; its servers' rows cascade its own away.
  needs: ['jobs', 'audit', 'webhooks'],
  repositories,
  services: [JobExecutors, BackgroundJobService, BackgroundJobWorker],
  migrations: [
    ['001_background_jobs', backgroundJobsTable],
    ['002_lease_by_database_time', leaseByDatabaseTime],
    ['003_queue_deadline', queueDeadline],
  ],
  endpoints: Object.values(jobEndpoints),
  routes: (routes, c) => jobRoutes(routes, c.resolve(BackgroundJobService)),
  parts: (c) => [['background jobs', c.resolve(BackgroundJobWorker)]],
  jobs: (c) => [
    {
      // Any node fails the running jobs whose lease ran out (their node died without ending them), and the
      // queued ones past their deadline (their node is gone for good, or runs no job of their kind).
      name: 'background-jobs.sweep',
      everyMs: c.resolve(TOKENS.Settings).backgroundJobPollMs * SWEEP_POLLS,
      startNow: false,
      run: async () => void (await c.resolve(BackgroundJobService).failExpired()),
    },
  ],
};
