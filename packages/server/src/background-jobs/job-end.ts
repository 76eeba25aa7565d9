import type { Job } from '@garrison/core';
import type { Clock } from '../jobs/clock.js';
import type { BackgroundJobService } from './service.js';

/** How often a caller waiting for a job looks at it: a job of minutes or hours, on whichever node runs it. */
const LOOK_EVERY_MS = 5_000;

/**
 * The job once it ended (done, failed or cancelled), read from the database (the node running it may be
 * another); `signal` stops the wait, never the job.
 */
async function jobEnd(jobs: BackgroundJobService, clock: Clock, id: number, signal: AbortSignal): Promise<Job> {
  for (;;) {
    const job = await jobs.get(id);
    if (job.status !== 'queued' && job.status !== 'running') return job;
    await clock.sleep(LOOK_EVERY_MS, signal, `job.end:${id}`);
  }
}

/**
 * Waits for the job's end (as `jobEnd`) and throws, naming `what`, unless it is done: a step that needs the
 * job's work (`the update of the server (job 7) failed: STEAM_DISK_FULL: …`).
 */
export async function jobDone(jobs: BackgroundJobService, clock: Clock, id: number, signal: AbortSignal, what: string): Promise<void> {
  const job = await jobEnd(jobs, clock, id, signal);
  if (job.status === 'done') return;
  if (job.status === 'cancelled') throw new Error(`${what} (job ${job.id}) was cancelled`);
  throw new Error(`${what} (job ${job.id}) failed: ${job.error ? `${job.error.code}: ${job.error.message}` : 'no reason given'}`);
}
