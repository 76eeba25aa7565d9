import type { Job } from '@garrison/core';
import type { Clock } from '../jobs/clock.js';
import type { BackgroundJobService } from './service.js';

/** How often a caller waiting for a job looks at it: a job of minutes or hours, on whichever node runs it. */
const LOOK_EVERY_MS = 5_000;

/**
 * The job once it ended (done, failed or cancelled), read from the database (the node running it may be
 * another); `signal` stops the wait, never the job.
 */
export async function jobEnd(jobs: BackgroundJobService, clock: Clock, id: number, signal: AbortSignal): Promise<Job> {
  for (;;) {
    const job = await jobs.get(id);
    if (job.status !== 'queued' && job.status !== 'running') return job;
    await clock.sleep(LOOK_EVERY_MS, signal, `job.end:${id}`);
  }
}

/** Why an ended job did not do its work (`the install failed: STEAM_DISK_FULL …`), or null when it is done. */
export function jobProblem(job: Job, what: string): string | null {
  if (job.status === 'done') return null;
  if (job.status === 'cancelled') return `${what} (job ${job.id}) was cancelled`;
  return `${what} (job ${job.id}) failed: ${job.error ? `${job.error.code}: ${job.error.message}` : 'no reason given'}`;
}
