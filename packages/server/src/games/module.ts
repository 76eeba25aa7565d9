import { gameEndpoints } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { FeatureModule } from '../modules/feature-module.js';
import { gameRoutes } from './routes.js';

export const gamesModule: FeatureModule = {
  name: 'games',
  endpoints: Object.values(gameEndpoints),
  routes: (routes, c) => gameRoutes(routes, c.resolve(TOKENS.Adapters)),
};
