import { always, STATE_CHANGES, type CacheRules } from './rule.js';

/** A server's record (`server:`) and the list of every server (`servers:`). */
export const serverRules: CacheRules = {
  serverKeys: ['server:'],
  // The record and the list are patched by the components that show them.
  live: [{ on: STATE_CHANGES, keys: ['server:', 'servers:'], appliedLive: always }],
  audit: {
    server_created: ['servers:'],
    server_deleted: ['servers:'],
    server_updated: ['servers:', 'server:'],
    config_changed: ['server:', 'servers:'],
  },
};
