import { auditEndpoints, lifecycleEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { historySettings, type HistorySettings } from './settings.js';
import { AuditRepository } from '../db/repositories/audit.js';
import { AuditService } from './service.js';
import { HistoryRetention } from './retention.js';
import { auditRoutes } from './routes.js';

const repositories = { audit: AuditRepository };

export const auditModule: FeatureModule<typeof repositories, HistorySettings> = {
  name: 'audit',
  settings: historySettings,
  // The pruning runs once in the cluster, under a lease.
  needs: ['jobs', 'cluster'],
  repositories,
  services: [AuditService, HistoryRetention],
  endpoints: [lifecycleEndpoints.listServerEvents, auditEndpoints.listAudit],
  routes: (routes, c) => auditRoutes(routes, c.resolve(AuditService)),
  parts: (c) => [
    ['audit', c.resolve(AuditService)],
    ['history retention', c.resolve(HistoryRetention)],
  ],
};
