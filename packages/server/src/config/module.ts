import { configEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { ConfigSectionRepository } from '../db/repositories/config-sections.js';
import { ConfigService } from './service.js';
import { configRoutes } from './routes.js';

const repositories = { configSections: ConfigSectionRepository };

export const configModule: FeatureModule<typeof repositories> = {
  name: 'config',
  repositories,
  services: [ConfigService],
  endpoints: Object.values(configEndpoints),
  routes: (routes, c) => configRoutes(routes, c.resolve(ConfigService)),
};
