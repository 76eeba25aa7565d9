import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { Supervisor } from './supervisor.js';

export function lifecycleRoutes(routes: RouteTable, supervisor: Supervisor): void {
  routes.implement(endpoints.startServer, async ({ params, principal }) => supervisor.start(params.server_id, principal.username));
  routes.implement(endpoints.stopServer, async ({ params, body, principal }) => supervisor.stop(params.server_id, principal.username, body ?? {}));
  routes.implement(endpoints.restartServer, async ({ params, principal }) => supervisor.restart(params.server_id, principal.username));
  routes.implement(endpoints.killServer, async ({ params, principal }) => supervisor.kill(params.server_id, principal.username));
}
