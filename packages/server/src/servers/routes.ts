import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ServerService } from './service.js';
import { FORWARDED, type Forwarder } from '../cluster/forwarding.js';

export function serverRoutes(routes: RouteTable, servers: ServerService, forwarder: Forwarder): void {
  routes.implement(
    endpoints.listServers,
    async ({ query, principal }) => servers.list({ ...query, only: principal.key?.server_ids ?? null }),
    { reuse: servers.listSources },
  );
  routes.implement(endpoints.createServer, async ({ body, actor, ctx }) => {
    // A server is made where it will run: its folder and its executable are that node's.
    const node = await forwarder.placeNew(body.node_id, ctx);
    if (!node) return servers.create(body, actor);
    await forwarder.relay(ctx, node, Buffer.from(JSON.stringify({ ...body, node_id: node.nodeId })));
    return FORWARDED as never;
  });
  routes.implement(endpoints.getServer, async ({ params }) => servers.get(params.server_id));
  routes.implement(endpoints.updateServer, async ({ params, body, actor }) => servers.update(params.server_id, body, actor));
  routes.implement(endpoints.deleteServer, async ({ params, actor }) => servers.delete(params.server_id, actor));
}
