import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from './service.js';

export function auditRoutes(routes: RouteTable, audit: AuditService): void {
  routes.implement(endpoints.listServerEvents, async ({ params, query }) => audit.list(params.server_id, query));
}
