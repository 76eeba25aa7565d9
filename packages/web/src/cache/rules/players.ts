import { always, fromProcessEvent, STATE_CHANGES, type CacheRules } from './rule.js';

/** The players on a server (`players:`), who was on it (`history:`), its bans (`bans:`). */
export const playerRules: CacheRules = {
  serverKeys: ['players:', 'history:', 'bans:'],
  live: [
    // A stop closes the sessions of those who were on.
    { on: STATE_CHANGES, keys: ['history:'], appliedLive: fromProcessEvent },
    { on: ['players'], keys: ['players:'], appliedLive: always },
    { on: ['players'], keys: ['history:'] },
  ],
  audit: {
    kick: ['bans:', 'history:'],
    ban: ['bans:'],
    unban: ['bans:'],
    ban_file_changed: ['bans:'],
    backup_restored: ['bans:'],
  },
};
