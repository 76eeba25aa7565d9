import { always, fromProcessEvent, STATE_CHANGES, type CacheRules } from './rule.js';

/** What a running server produces: its log lines (`logs:`), the game's log files (`logfiles:`), its figures (`metrics:`). */
export const liveRules: CacheRules = {
  serverKeys: ['logs:', 'logfiles:', 'metrics:'],
  live: [
    // A start or a stop may change the game's log files.
    { on: STATE_CHANGES, keys: ['logfiles:'], appliedLive: fromProcessEvent },
    { on: ['log'], keys: ['logs:'], appliedLive: always },
    { on: ['metrics'], keys: ['metrics:'], appliedLive: always },
  ],
  audit: { log_file_deleted: ['logfiles:'] },
};
