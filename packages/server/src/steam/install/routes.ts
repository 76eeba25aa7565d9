import { steamEndpoints } from '@garrison/core';
import type { RouteTable } from '../../http/route-table.js';
import type { InstallService } from './service.js';

export function installRoutes(routes: RouteTable, installs: InstallService): void {
  routes.implement(steamEndpoints.installServer, async ({ params, body, actor }) => installs.request(params.server_id, body, actor));
  routes.implement(steamEndpoints.getServerInstall, async ({ params }) => installs.state(params.server_id));
}
