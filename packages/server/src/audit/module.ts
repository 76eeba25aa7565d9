import { lifecycleEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { ServerEventRepository } from '../db/repositories/server-events.js';
import { AuditService } from './service.js';
import { HistoryRetention } from './retention.js';
import { auditRoutes } from './routes.js';

const repositories = { audit: ServerEventRepository };

export const auditModule: FeatureModule<typeof repositories> = {
  name: 'audit',
  // The pruning runs once in the cluster, under a lease.
  needs: ['jobs', 'cluster'],
  repositories,
  services: [AuditService, HistoryRetention],
  endpoints: [lifecycleEndpoints.listServerEvents],
  routes: (routes, c) => auditRoutes(routes, c.resolve(AuditService)),
  parts: (c) => [
    ['audit', c.resolve(AuditService)],
    ['history retention', c.resolve(HistoryRetention)],
  ],
};
