import type { CacheRules } from './rule.js';

/** A server's config sections (`config:`) and the files generated from them (`preview:`). */
export const configRules: CacheRules = {
  serverKeys: ['config:', 'preview:'],
  audit: {
    server_updated: ['config:', 'preview:'],
    config_changed: ['config:', 'preview:'],
    backup_restored: ['config:', 'preview:'],
  },
};
