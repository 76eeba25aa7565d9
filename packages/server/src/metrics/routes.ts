import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { MetricsService } from './service.js';

export function metricsRoutes(routes: RouteTable, metrics: MetricsService): void {
  routes.implement(endpoints.getMetrics, async ({ params, query }) => metrics.history(params.server_id, query));
}
