import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ServerService } from '../servers/service.js';
import type { AuditService } from './service.js';

export function auditRoutes(routes: RouteTable, servers: ServerService, audit: AuditService): void {
  routes.implement(endpoints.listServerEvents, async ({ params, query }) => {
    await servers.row(params.server_id); // 404 for an unknown server
    return audit.list(params.server_id, query);
  });
}
