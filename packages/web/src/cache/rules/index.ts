import { serverRules } from './servers.js';
import { nodeRules } from './nodes.js';
import { lifecycleRules } from './lifecycle.js';
import { liveRules } from './live.js';
import { playerRules } from './players.js';
import { missionRules } from './missions.js';
import { modRules } from './mods.js';
import { configRules } from './config.js';
import { scheduleRules } from './schedules.js';
import { backupRules } from './backups.js';
import { auditRules } from './audit.js';
import { jobRules } from './jobs.js';
import type { CacheRules } from './rule.js';

/** Every feature's rules; a live event marks the reads of each rule that follows it, in this order. */
export const CACHE_RULES: CacheRules[] = [
  serverRules,
  nodeRules,
  lifecycleRules,
  liveRules,
  playerRules,
  missionRules,
  modRules,
  configRules,
  scheduleRules,
  backupRules,
  auditRules,
  jobRules,
];
