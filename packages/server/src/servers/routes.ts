import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ServerService } from './service.js';

export function serverRoutes(routes: RouteTable, servers: ServerService): void {
  routes.implement(endpoints.listServers, async ({ query }) => servers.list(query), { reuse: servers.listSources });
  routes.implement(endpoints.createServer, async ({ body, actor }) => servers.create(body, actor));
  routes.implement(endpoints.getServer, async ({ params }) => servers.get(params.server_id));
  routes.implement(endpoints.updateServer, async ({ params, body, actor }) => servers.update(params.server_id, body, actor));
  routes.implement(endpoints.deleteServer, async ({ params }) => servers.delete(params.server_id));
}
