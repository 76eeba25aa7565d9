import type { CacheRules } from './rule.js';

/** A server's schedules (`schedules:`) and each one's runs (`schedule-runs:`). */
export const scheduleRules: CacheRules = {
  serverKeys: ['schedules:', 'schedule-runs:'],
  // Nothing on the page applies a run's progress itself: read again.
  live: [{ on: ['schedule_run'], keys: ['schedule-runs:', 'schedules:'] }],
  audit: {
    schedule_created: ['schedules:'],
    schedule_updated: ['schedules:'],
    schedule_deleted: ['schedules:'],
    schedule_disabled: ['schedules:'],
    schedule_run: ['schedules:', 'schedule-runs:'],
  },
};
