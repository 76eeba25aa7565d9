import { steamEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { SteamAccountRepository } from '../db/repositories/steam-account.js';
import { SteamAppInfoRepository } from '../db/repositories/steam-app-info.js';
import { SteamInstallationRepository } from '../db/repositories/steam-installations.js';
import { JobExecutors } from '../background-jobs/executors.js';
import { Supervisor } from '../supervisor/supervisor.js';
import { steamSettings, type SteamSettings } from './settings.js';
import { SteamCmdService } from './steamcmd-service.js';
import { steamAccountTable } from './account/migration.js';
import { SteamAccountService } from './account/service.js';
import { steamAccountRoutes } from './account/routes.js';
import { steamAppInfoTable, steamInstallationsTable } from './install/migration.js';
import { BranchPasswords } from './install/branch-passwords.js';
import { INSTALL_JOB, InstallService } from './install/service.js';
import { InstallExecutor } from './install/executor.js';
import { installRoutes } from './install/routes.js';
import { UpdateServerAction } from './install/schedule-action.js';
import { ScheduleActionRegistry } from '../schedules/action-registry.js';

const repositories = {
  steamAccount: SteamAccountRepository,
  steamAppInfo: SteamAppInfoRepository,
  steamInstallations: SteamInstallationRepository,
};

/**
 * Steam: installing and updating game servers and their Workshop mods with SteamCMD, one run at a time
 * per node (SteamCmdService), as background jobs. The account SteamCMD logs in with (account/), the
 * dedicated server's install (install/).
 */
export const steamModule: FeatureModule<typeof repositories, SteamSettings> = {
  name: 'steam',
  settings: steamSettings,
  // Its jobs run on the background-job worker; a start of a server being installed, or whose install failed, is refused.
  needs: ['background-jobs', 'audit', 'supervisor', 'schedules'],
  repositories,
  services: [SteamAccountService, SteamCmdService, BranchPasswords, InstallService, InstallExecutor, UpdateServerAction],
  migrations: [
    ['001_steam_account', steamAccountTable],
    ['002_steam_app_info', steamAppInfoTable],
    ['003_steam_installations', steamInstallationsTable],
  ],
  endpoints: Object.values(steamEndpoints),
  routes: (routes, c) => {
    steamAccountRoutes(routes, c.resolve(SteamAccountService));
    installRoutes(routes, c.resolve(InstallService));
  },
  parts: (c) => {
    const installs = c.resolve(InstallService);
    c.resolve(Supervisor).beforeFiles((id) => installs.assertStartable(id));
    c.resolve(ScheduleActionRegistry).register('update_server', c.resolve(UpdateServerAction));
    const steamcmd = c.resolve(SteamCmdService);
    return [
      [
        'steam',
        {
          start: async () => {
            await steamcmd.start();
            c.resolve(JobExecutors).register(INSTALL_JOB, c.resolve(InstallExecutor));
          },
          stop: () => steamcmd.stop(),
        },
      ],
    ];
  },
};
