import type { CacheRules } from './rule.js';

/** A server's mission files (`missions:`) and its rotation (`rotation:`). */
export const missionRules: CacheRules = {
  serverKeys: ['missions:', 'rotation:'],
  audit: {
    mission_uploaded: ['missions:', 'rotation:'],
    mission_deleted: ['missions:', 'rotation:'],
    config_changed: ['rotation:'],
  },
};
