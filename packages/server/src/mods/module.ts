import { modEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { ModService } from './service.js';
import { ModPresets } from './presets.js';
import { modRoutes } from './routes.js';

export const modsModule: FeatureModule = {
  name: 'mods',
  services: [ModService, ModPresets],
  endpoints: Object.values(modEndpoints),
  routes: (routes, c) => modRoutes(routes, c.resolve(ModService), c.resolve(ModPresets)),
};
