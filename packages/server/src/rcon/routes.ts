import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { RemoteAdminService } from './service.js';

export function rconRoutes(routes: RouteTable, remoteAdmin: RemoteAdminService): void {
  routes.implement(endpoints.rconSay, async ({ params, body, actor }) => {
    await remoteAdmin.say(params.server_id, body.message, actor);
    return { message: 'sent' };
  });
  routes.implement(endpoints.rconCommand, async ({ params, body, actor }) => ({
    response: await remoteAdmin.adminCommand(params.server_id, body.command, actor),
  }));
}
