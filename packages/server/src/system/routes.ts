import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { ServerService } from '../servers/service.js';
import type { PrometheusSettings } from '../prometheus/settings.js';

import { SERVICE_VERSION } from './version.js';

export function systemRoutes(routes: RouteTable, servers: ServerService, adapters: AdapterRegistry, settings: PrometheusSettings): void {
  routes.implement(endpoints.getIntegrations, async () => ({
    metrics: {
      enabled: settings.metricsToken !== null,
      path: '/metrics' as const,
      address: settings.metricsToken !== null ? settings.metricsAddress : null,
    },
  }));
  routes.implement(endpoints.health, async () => ({ status: 'ok' as const }));
  routes.implement(endpoints.systemStatus, async ({ principal }) => {
    // A key limited to servers is not told how many others there are.
    const counts = await servers.counts(principal?.key?.server_ids ?? null);
    return {
      version: SERVICE_VERSION,
      running_servers: counts.running,
      total_servers: counts.total,
      supported_games: adapters.list().map((a) => a.identity.game_type),
    };
  });
}
