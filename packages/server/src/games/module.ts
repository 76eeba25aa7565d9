import { gameEndpoints } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { FeatureModule } from '../modules/feature-module.js';
import { gameRoutes } from './routes.js';

export const gamesModule: FeatureModule = {
  name: 'games',
  endpoints: Object.values(gameEndpoints),
  // The default game (a setting of the servers feature) is marked in the list, for a create form to preselect.
  routes: (routes, c) => gameRoutes(routes, c.resolve(TOKENS.Adapters), c.resolve(TOKENS.Settings).defaultGameType),
};
