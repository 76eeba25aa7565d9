import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { RemoteAdminService } from '../rcon/service.js';
import type { ServerService } from './service.js';

export function serverRoutes(routes: RouteTable, servers: ServerService, remoteAdmin: RemoteAdminService): void {
  routes.implement(endpoints.listServers, async ({ query }) => servers.list(query));
  routes.implement(endpoints.createServer, async ({ body }) => servers.create(body));
  routes.implement(endpoints.getServer, async ({ params }) => servers.get(params.server_id));
  routes.implement(endpoints.updateServer, async ({ params, body }) => servers.update(params.server_id, body));
  routes.implement(endpoints.deleteServer, async ({ params }) => {
    await servers.delete(params.server_id);
    await remoteAdmin.drop(params.server_id);
  });
}
