import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { NodeService } from './service.js';

export function nodeRoutes(routes: RouteTable, nodes: NodeService): void {
  routes.implement(endpoints.listNodes, async () => nodes.list());
  routes.implement(endpoints.updateNode, async ({ params, body, actor }) => nodes.setDraining(params.node_id, body.draining, actor));
}
