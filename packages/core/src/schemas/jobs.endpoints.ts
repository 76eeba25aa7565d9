import { defineEndpoint } from '../endpoint.js';
import { Job, JobIdParams } from './jobs.js';

/** Background jobs: what an install or a download started, followed to its end. */
export const jobEndpoints = {
  getJob: defineEndpoint({
    operationId: 'getJob',
    method: 'GET',
    path: '/jobs/{job_id}',
    tag: 'jobs',
    summary: 'A background job',
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
    notes: 'Queued: cancelled at once; running: asked to stop (`cancel_requested`), it ends `cancelled`.',
    access: 'admin',
    scope: 'servers:control',
    params: JobIdParams,
    status: 200,
    response: Job,
    errors: ['NOT_FOUND', 'CONFLICT'],
  }),
} as const;
