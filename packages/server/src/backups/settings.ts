import { declareSettings, integer, text } from '../setting-specs.js';

/** Where backups go, how many copies of Garrison's own database are kept, and what a restore takes. */
export interface BackupSettings {
  backupDir: string | null;
  dbBackupKeep: number;
  /**
   * A restore refuses an archive that expands past this many bytes, or holds more entries than
   * `restoreMaxFiles` (a bomb fills no disk).
   */
  restoreMaxBytes: number;
  restoreMaxFiles: number;
}

export const backupSettings = declareSettings<BackupSettings>({
  feature: 'backups',
  // A profile and its config are a few MiB; missions (a backup may hold them) are the bulk.
  defaults: { backupDir: null, dbBackupKeep: 7, restoreMaxBytes: 16 * 1024 ** 3, restoreMaxFiles: 100_000 },
  specs: [
    {
      key: 'backupDir',
      env: 'GARRISON_BACKUP_DIR',
      shownDefault: '<data dir>/backups',
      meaning: 'where server backups are written, one folder per server',
      doc: { default: '`<data dir>/backups`' },
      parse: text,
    },
    {
      key: 'dbBackupKeep',
      env: 'GARRISON_DB_BACKUP_KEEP',
      meaning: "daily copies of Garrison's own SQLite database kept in <backup dir>/garrison-db; 0 turns them off",
      parse: integer(0),
    },
    {
      key: 'restoreMaxBytes',
      env: 'GARRISON_RESTORE_MAX_BYTES',
      meaning:
        'a restore refuses (400) an archive whose files add up to more than this (16 GiB), or to more than the free space where they go',
      doc: {
        meaning:
          'a restore refuses (400 `VALIDATION_ERROR`, nothing changed) an archive whose files add up to more than this (16 GiB), or ' +
          'to more than the free space where they go; a profile and its config are a few MiB, missions (when the backup holds them) ' +
          'are the bulk',
      },
      parse: integer(1),
    },
    {
      key: 'restoreMaxFiles',
      env: 'GARRISON_RESTORE_MAX_FILES',
      meaning: 'a restore refuses (400) an archive holding more entries (files, folders, links) than this',
      doc: {
        meaning:
          'a restore refuses (400 `VALIDATION_ERROR`, nothing changed) an archive holding more entries (files, folders, links) than this',
      },
      parse: integer(1),
    },
  ],
});
