import { systemEndpoints } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { FeatureModule } from '../modules/feature-module.js';
import { ServerService } from '../servers/service.js';
import { systemRoutes } from './routes.js';

export const systemModule: FeatureModule = {
  name: 'system',
  endpoints: Object.values(systemEndpoints),
  routes: (routes, c) => systemRoutes(routes, c.resolve(ServerService), c.resolve(TOKENS.Adapters), c.resolve(TOKENS.Settings)),
};
