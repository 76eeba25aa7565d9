import { lifecycleEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { ProcessRepository } from '../db/repositories/processes.js';
import { ProcessService } from './service.js';
import { processRoutes } from './routes.js';

const repositories = { processes: ProcessRepository };

export const processesModule: FeatureModule<typeof repositories> = {
  name: 'processes',
  // The processes are this node's, watched by jobs.
  needs: ['jobs', 'nodes'],
  repositories,
  services: [ProcessService],
  endpoints: [lifecycleEndpoints.listProcesses],
  routes: (routes, c) => processRoutes(routes, c.resolve(ProcessService)),
  parts: (c) => [['processes', c.resolve(ProcessService)]],
};
