import type { CacheRules } from './rule.js';

/** The whole service's audit trail (`trail:`, the Audit page): a server's entry comes live; the others are read on Refresh. */
export const auditRules: CacheRules = {
  serverKeys: [],
  live: [{ on: ['event'], keys: ['trail:'] }],
};
