import { serverEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { ImportService } from './service.js';
import { importRoutes } from './routes.js';

export const importModule: FeatureModule = {
  name: 'import',
  services: [ImportService],
  endpoints: [serverEndpoints.importServer],
  routes: (routes, c) => importRoutes(routes, c.resolve(ImportService)),
};
