import { nodeEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { NodeRepository } from '../db/repositories/nodes.js';
import { NodeService } from './service.js';
import { nodeRoutes } from './routes.js';

const repositories = { nodes: NodeRepository };

export const nodesModule: FeatureModule<typeof repositories> = {
  name: 'nodes',
  // What the node publishes as it registers crosses to the other instances.
  needs: ['jobs', 'cluster'],
  repositories,
  services: [NodeService],
  endpoints: Object.values(nodeEndpoints),
  routes: (routes, c) => nodeRoutes(routes, c.resolve(NodeService)),
  parts: (c) => [['nodes', c.resolve(NodeService)]],
};
