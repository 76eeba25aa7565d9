import type { CacheRules } from './rule.js';

/** A server's backups (`backups:`). */
export const backupRules: CacheRules = {
  serverKeys: ['backups:'],
  // The tab shows the bytes of a running backup from the event itself; its end is read again.
  live: [{ on: ['backup'], keys: ['backups:'], appliedLive: (_type, data) => (data as { status: string }).status === 'running' }],
  audit: {
    backup_started: ['backups:'],
    backup_failed: ['backups:'],
    backup_updated: ['backups:'],
    backup_deleted: ['backups:'],
    backup_restored: ['backups:'],
  },
};
