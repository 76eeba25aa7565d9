import { missionEndpoints } from '@garrison/core';
import type { FeatureModule, NoRepositories } from '../modules/feature-module.js';
import { missionSettings, type MissionSettings } from './settings.js';
import { MissionService } from './service.js';
import { MissionPlay } from './play.js';
import { missionRoutes } from './routes.js';

export const missionsModule: FeatureModule<NoRepositories, MissionSettings> = {
  name: 'missions',
  settings: missionSettings,
  services: [MissionService],
  endpoints: Object.values(missionEndpoints),
  routes: (routes, c) => missionRoutes(routes, c.resolve(MissionService), c.resolve(MissionPlay)),
};
