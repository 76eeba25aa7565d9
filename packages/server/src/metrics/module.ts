import { liveEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { MetricsRepository } from '../db/repositories/metrics.js';
import { LiveFigures } from './live-values.js';
import { MetricsService } from './service.js';
import { metricsRoutes } from './routes.js';

const repositories = { metrics: MetricsRepository };

export const metricsModule: FeatureModule<typeof repositories> = {
  name: 'metrics',
  needs: ['jobs', 'processes'],
  repositories,
  services: [LiveFigures, MetricsService],
  endpoints: [liveEndpoints.getMetrics],
  routes: (routes, c) => metricsRoutes(routes, c.resolve(MetricsService)),
  parts: (c) => [['metrics', c.resolve(MetricsService)]],
};
