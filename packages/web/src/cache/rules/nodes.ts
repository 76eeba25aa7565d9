import { STATE_CHANGES, type CacheRules } from './rule.js';

/** The nodes of a cluster (`nodes:`). */
export const nodeRules: CacheRules = {
  serverKeys: [],
  // A node that went offline or came back changes the nodes' states (and their counts).
  live: [{ on: STATE_CHANGES, keys: ['nodes:'] }],
};
