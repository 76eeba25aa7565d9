import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { ClusterNode, NodeIdParams, UpdateNodeRequest } from './nodes.js';

/** The nodes: the Garrison instances of a cluster (one for a single instance). */
export const nodeEndpoints = {
  listNodes: defineEndpoint({
    operationId: 'listNodes',
    method: 'GET',
    path: '/nodes',
    tag: 'nodes',
    summary: 'The Garrison instances and whether each is alive',
    access: 'any',
    scope: 'servers:read',
    status: 200,
    response: Type.Array(ClusterNode),
  }),
  updateNode: defineEndpoint({
    operationId: 'updateNode',
    method: 'PUT',
    path: '/nodes/{node_id}',
    tag: 'nodes',
    summary: 'Drain a node (no new servers placed on it) or undrain it',
    access: 'admin',
    scope: 'admin',
    params: NodeIdParams,
    body: UpdateNodeRequest,
    status: 200,
    response: ClusterNode,
    errors: ['NOT_FOUND'],
  }),
} as const;
