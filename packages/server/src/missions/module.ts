import type { FeatureModule } from '../modules/feature-module.js';
import { MissionService } from './service.js';
import { MissionPlay } from './play.js';
import { missionRoutes } from './routes.js';

export const missionsModule: FeatureModule = {
  name: 'missions',
  services: [MissionService],
  routes: (routes, c) => missionRoutes(routes, c.resolve(MissionService), c.resolve(MissionPlay)),
};
