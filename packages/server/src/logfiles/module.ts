import { liveEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { LogFileService } from './service.js';
import { logFileRoutes } from './routes.js';

export const logFilesModule: FeatureModule = {
  name: 'logfiles',
  services: [LogFileService],
  endpoints: [liveEndpoints.listLogFiles, liveEndpoints.downloadLogFile, liveEndpoints.deleteLogFile],
  routes: (routes, c) => logFileRoutes(routes, c.resolve(LogFileService)),
};
