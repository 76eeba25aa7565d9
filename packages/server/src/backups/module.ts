import { backupEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { backupSettings, type BackupSettings } from './settings.js';
import { BackupRepository } from '../db/repositories/backups.js';
import { BackupService } from './service.js';
import { BackupWriter } from './writer.js';
import { BackupRestore } from './restore.js';
import { DatabaseBackups } from './database.js';
import { backupRoutes } from './routes.js';

const repositories = { backups: BackupRepository };

export const backupsModule: FeatureModule<typeof repositories, BackupSettings> = {
  name: 'backups',
  settings: backupSettings,
  // A restore stops and starts games through the supervisor.
  needs: ['jobs', 'audit', 'supervisor'],
  repositories,
  services: [BackupService, BackupWriter, BackupRestore, DatabaseBackups],
  endpoints: Object.values(backupEndpoints),
  routes: (routes, c) => backupRoutes(routes, c.resolve(BackupService), c.resolve(BackupRestore)),
  parts: (c) => [
    ['backups', c.resolve(BackupService)],
    ['database backups', c.resolve(DatabaseBackups)],
  ],
};
