import { liveEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { LogLineRepository } from '../db/repositories/log-lines.js';
import { LogService } from './service.js';
import { logRoutes } from './routes.js';

const repositories = { logLines: LogLineRepository };

export const logsModule: FeatureModule<typeof repositories> = {
  name: 'logs',
  needs: ['jobs', 'cluster', 'processes'],
  repositories,
  services: [LogService],
  endpoints: [liveEndpoints.listLogs, liveEndpoints.clearLogs],
  routes: (routes, c) => logRoutes(routes, c.resolve(LogService)),
  parts: (c) => [['logs', c.resolve(LogService)]],
};
