import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { RemoteAdminService } from '../rcon/service.js';
import type { AuditService } from '../audit/service.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import type { ServerService } from './service.js';

export function serverRoutes(routes: RouteTable, servers: ServerService, remoteAdmin: RemoteAdminService, supervisor: Supervisor, audit: AuditService): void {
  routes.implement(endpoints.listServers, async ({ query }) => servers.list(query), { reuse: servers.listSources });
  routes.implement(endpoints.createServer, async ({ body, principal }) => {
    const created = await servers.create(body);
    void audit.record(created.id, 'server_created', principal.username, { name: created.name });
    return created;
  });
  routes.implement(endpoints.getServer, async ({ params }) => servers.get(params.server_id));
  routes.implement(endpoints.updateServer, async ({ params, body, principal }) => {
    const updated = await servers.update(params.server_id, body);
    void audit.record(params.server_id, 'server_updated', principal.username, { fields: Object.keys(body) });
    return updated;
  });
  routes.implement(endpoints.deleteServer, async ({ params }) => {
    // Under the lifecycle lock: a start cannot slip in between the status check and the delete.
    await supervisor.withLock(params.server_id, () => servers.delete(params.server_id));
    await remoteAdmin.drop(params.server_id);
  });
}
