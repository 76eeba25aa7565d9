import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ProcessService } from './service.js';

export function processRoutes(routes: RouteTable, processes: ProcessService): void {
  routes.implement(endpoints.listProcesses, async ({ params }) => processes.list(params.server_id));
}
