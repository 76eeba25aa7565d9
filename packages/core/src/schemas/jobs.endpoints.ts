import { defineEndpoint } from '../endpoint.js';
import { Job, JobIdParams } from './jobs.js';

/** Background jobs: what an install or a download started, followed to its end. */
export const jobEndpoints = {
  getJob: defineEndpoint({
    operationId: 'getJob',
    method: 'GET',
    path: '/jobs/{job_id}',
    tag: 'jobs',
    summary: 'A background job: its status, progress, error and last log lines',
    notes: 'A key limited to some servers sees only their jobs. The WebSocket tells the same as `job_progress` events.',
    access: 'any',
    scope: 'servers:read',
    params: JobIdParams,
    status: 200,
    response: Job,
    errors: ['NOT_FOUND'],
  }),
  cancelJob: defineEndpoint({
    operationId: 'cancelJob',
    method: 'DELETE',
    path: '/jobs/{job_id}',
    tag: 'jobs',
    summary: 'Cancel a background job',
    notes:
      'A queued job is cancelled at once; a running one is asked to stop (`cancel_requested`) and ends `cancelled` within seconds, ' +
      'whichever node runs it. A job already ended: 409 `CONFLICT`.',
    access: 'admin',
    scope: 'servers:control',
    params: JobIdParams,
    status: 200,
    response: Job,
    errors: ['NOT_FOUND', 'CONFLICT'],
  }),
} as const;
