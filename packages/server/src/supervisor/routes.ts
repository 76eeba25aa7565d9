import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { Supervisor } from './supervisor.js';

export function lifecycleRoutes(routes: RouteTable, supervisor: Supervisor): void {
  routes.implement(endpoints.startServer, async ({ params, actor }) => supervisor.start(params.server_id, actor));
  routes.implement(endpoints.stopServer, async ({ params, body, actor }) => supervisor.stop(params.server_id, actor, body ?? {}));
  routes.implement(endpoints.restartServer, async ({ params, actor }) => supervisor.restart(params.server_id, actor));
  routes.implement(endpoints.killServer, async ({ params, actor }) => supervisor.kill(params.server_id, actor));
}
