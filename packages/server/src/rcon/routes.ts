import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { RemoteAdminService } from './service.js';

export function rconRoutes(routes: RouteTable, remoteAdmin: RemoteAdminService): void {
  routes.implement(endpoints.rconCommand, async ({ params, body }) => ({
    response: await remoteAdmin.command(params.server_id, body.command),
  }));
}
