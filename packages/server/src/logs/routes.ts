import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { LogService } from './service.js';

export function logRoutes(routes: RouteTable, logs: LogService): void {
  routes.implement(endpoints.listLogs, async ({ params, query }) => logs.list(params.server_id, query));
  routes.implement(endpoints.clearLogs, async ({ params, actor }) => ({
    message: `deleted ${await logs.clear(params.server_id, actor)} stored log lines`,
  }));
}
