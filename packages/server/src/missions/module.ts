import { missionEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { MissionService } from './service.js';
import { MissionPlay } from './play.js';
import { missionRoutes } from './routes.js';

export const missionsModule: FeatureModule = {
  name: 'missions',
  services: [MissionService],
  endpoints: Object.values(missionEndpoints),
  routes: (routes, c) => missionRoutes(routes, c.resolve(MissionService), c.resolve(MissionPlay)),
};
