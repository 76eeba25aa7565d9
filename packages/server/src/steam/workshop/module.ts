import { workshopEndpoints } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { FeatureModule } from '../../modules/feature-module.js';
import { WorkshopItemRepository } from '../../db/repositories/workshop-items.js';
import { workshopItemsTable, workshopPendingKeysColumn } from './migration.js';
import { workshopSettings, type WorkshopSettings } from './settings.js';
import { WORKSHOP_JOB, WorkshopService } from './service.js';
import { WorkshopUpdateCheck } from './update-check.js';
import { workshopRoutes } from './routes.js';
import { JobExecutors } from '../../background-jobs/executors.js';
import { WorkshopDownloads } from './downloads.js';
import { WorkshopDownloadExecutor } from './download-executor.js';
import { UpdateModsAction } from './schedule-action.js';
import { ScheduleActionRegistry } from '../../schedules/action-registry.js';
import { ServerGlance } from '../../servers/glance.js';

const repositories = { workshopItems: WorkshopItemRepository };

/**
 * The Steam Workshop items of each server: recorded, installed into its installation once SteamCMD has
 * downloaded them, listed with the mods, removed with their keys, and checked against Steam every few
 * hours (docs/workshop.md). The download is a background job of the steam feature's runner.
 */
export const workshopModule: FeatureModule<typeof repositories, WorkshopSettings> = {
  name: 'workshop',
  // Its rows cascade with their servers'; it records removals and tells webhooks of updates; its downloads
  // are background jobs of the steam feature's runner.
  needs: ['jobs', 'audit', 'webhooks', 'servers', 'mods', 'background-jobs', 'steam', 'schedules'],
  settings: workshopSettings,
  repositories,
  services: [WorkshopService, WorkshopUpdateCheck, WorkshopDownloads, WorkshopDownloadExecutor, UpdateModsAction],
  migrations: [
    ['001_workshop_items', workshopItemsTable],
    ['002_workshop_pending_keys', workshopPendingKeysColumn],
  ],
  endpoints: Object.values(workshopEndpoints),
  routes: (routes, c) => workshopRoutes(routes, c.resolve(WorkshopService), c.resolve(WorkshopUpdateCheck), c.resolve(WorkshopDownloads)),
  parts: (c) => {
    c.resolve(ScheduleActionRegistry).register('update_mods', c.resolve(UpdateModsAction));
    // A server with an outdated item says so on its card (and in GET /servers), as the webhook does.
    const repos = c.resolve(TOKENS.Repositories);
    c.resolve(ServerGlance).addWarnings({
      tables: ['workshop_items'],
      warningsOf: async (ids) => new Map([...(await repos.workshopItems.withOutdated(ids))].map((id) => [id, ['mods_outdated']])),
    });
    return [['workshop', { start: () => c.resolve(JobExecutors).register(WORKSHOP_JOB, c.resolve(WorkshopDownloadExecutor)) }]];
  },
  jobs: (c) => [
    {
      name: 'workshop.check',
      everyMs: c.resolve(TOKENS.Settings).workshopCheckHours * 3_600_000,
      // Not at start: a service restarted often would ask Steam each time.
      startNow: false,
      run: async () => void (await c.resolve(WorkshopUpdateCheck).run()),
    },
  ],
};
