import type { CacheRules } from './rule.js';

/** A server's mods and which of them load (`mods:`). */
export const modRules: CacheRules = {
  serverKeys: ['mods:'],
  audit: { config_changed: ['mods:'] },
};
