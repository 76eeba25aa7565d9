import { playerEndpoints, rconEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { RemoteAdminService } from './service.js';
import { rconRoutes } from './routes.js';

export const rconModule: FeatureModule = {
  name: 'rcon',
  needs: ['audit'],
  services: [RemoteAdminService],
  endpoints: [rconEndpoints.rconCommand, playerEndpoints.rconSay],
  routes: (routes, c) => rconRoutes(routes, c.resolve(RemoteAdminService)),
  parts: (c) => [['remote admin', c.resolve(RemoteAdminService)]],
};
