import { jobEndpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { BackgroundJobService } from './service.js';

export function jobRoutes(routes: RouteTable, jobs: BackgroundJobService): void {
  routes.implement(jobEndpoints.getJob, async ({ params, principal }) => jobs.get(params.job_id, principal));
  routes.implement(jobEndpoints.cancelJob, async ({ params, actor, principal }) => jobs.cancel(params.job_id, actor, principal));
}
