import type { Caller, Result } from './calls.js';

/** Background jobs (an install, a download): followed to their end, cancelled by an admin. */
export const jobs = (c: Caller) => ({
  get: (job_id: number): Result<'getJob'> => c.call('getJob', { params: { job_id } }),
  /** A queued job ends at once; a running one is asked to stop and ends `cancelled` shortly (watch `job_progress`). */
  cancel: (job_id: number): Result<'cancelJob'> => c.call('cancelJob', { params: { job_id } }),
});
