import type { Caller, Body, Result } from './calls.js';

/** The Garrison instances (nodes) of a cluster; one for a single instance. */
export const nodes = (c: Caller) => ({
  list: (): Result<'listNodes'> => c.call('listNodes'),
  /** Draining: no new servers are placed on the node. */
  update: (node_id: string, body: Body<'updateNode'>): Result<'updateNode'> => c.call('updateNode', { params: { node_id }, body }),
});
