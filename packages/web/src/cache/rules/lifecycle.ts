import { always, fromProcessEvent, STATE_CHANGES, type CacheRules } from './rule.js';

/** A server's processes (`processes:`) and its audit trail (`audit:`). */
export const lifecycleRules: CacheRules = {
  serverKeys: ['processes:', 'audit:'],
  live: [
    { on: STATE_CHANGES, keys: ['processes:'], appliedLive: fromProcessEvent },
    // The audit tab prepends the entry itself.
    { on: ['event'], keys: ['audit:'], appliedLive: always },
  ],
};
