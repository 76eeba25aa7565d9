import { declareSettings, integer } from '../setting-specs.js';

/** How often CPU and memory of each game are sampled, and how long samples are kept. */
export interface MetricsSettings {
  metricsIntervalMs: number;
  metricsRetentionHours: number;
}

export const metricsSettings = declareSettings<MetricsSettings>({
  feature: 'metrics',
  defaults: { metricsIntervalMs: 5000, metricsRetentionHours: 72 },
  specs: [
    {
      key: 'metricsIntervalMs',
      env: 'GARRISON_METRICS_INTERVAL_MS',
      meaning: 'CPU and memory sampling (and metrics events)',
      doc: { meaning: 'CPU and memory sampling (and `metrics` events)' },
      parse: integer(1),
    },
    { key: 'metricsRetentionHours', env: 'GARRISON_METRICS_RETENTION_HOURS', meaning: 'metrics history kept', parse: integer(1) },
  ],
});
