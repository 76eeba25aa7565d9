import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ServerService } from '../servers/service.js';
import type { MetricsService } from './service.js';

export function metricsRoutes(routes: RouteTable, servers: ServerService, metrics: MetricsService): void {
  routes.implement(endpoints.getMetrics, async ({ params, query }) => {
    await servers.row(params.server_id);
    return metrics.history(params.server_id, query);
  });
}
