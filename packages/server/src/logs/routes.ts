import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ServerService } from '../servers/service.js';
import type { LogService } from './service.js';

export function logRoutes(routes: RouteTable, servers: ServerService, logs: LogService): void {
  routes.implement(endpoints.listLogs, async ({ params, query }) => {
    await servers.row(params.server_id);
    return logs.list(params.server_id, query);
  });
  routes.implement(endpoints.clearLogs, async ({ params }) => {
    await servers.row(params.server_id);
    const deleted = await logs.clear(params.server_id);
    return { message: `deleted ${deleted} stored log lines` };
  });
}
