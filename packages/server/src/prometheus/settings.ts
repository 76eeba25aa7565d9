import { declareSettings, SettingError, secretOf } from '../setting-specs.js';

/** Whether `GET /metrics` is served, to whom, and on which address. */
export interface PrometheusSettings {
  /** Turns `GET /metrics` (Prometheus) on, for requests bearing it; null: off. */
  metricsToken: string | null;
  /** `host:port` where `/metrics` is served instead of the API's port; null: on the API's port. */
  metricsAddress: string | null;
}

export const prometheusSettings = declareSettings<PrometheusSettings>({
  feature: 'prometheus',
  defaults: { metricsToken: null, metricsAddress: null },
  specs: [
    {
      key: 'metricsToken',
      env: 'GARRISON_METRICS_TOKEN',
      shownDefault: 'none (no /metrics)',
      meaning:
        'turns GET /metrics (Prometheus text, OpenMetrics on request) on for requests with Authorization: Bearer <this>; ' +
        'at least 16 characters',
      doc: {
        meaning:
          'turns `GET /metrics` (Prometheus text format; OpenMetrics when the scraper asks for it) on, for requests with ' +
          '`Authorization: Bearer <this>`; at least 16 characters. See [integrations](integrations.md)',
        default: 'none (no `/metrics`)',
      },
      parse: secretOf(16),
    },
    {
      key: 'metricsAddress',
      env: 'GARRISON_METRICS_ADDRESS',
      shownDefault: "the API's address",
      meaning: "host:port where /metrics is served instead of on the API's port (e.g. 127.0.0.1:9464)",
      doc: {
        meaning: "`host:port` (e.g. `127.0.0.1:9464`) where `/metrics` is served instead of on the API's port, still behind the token",
      },
      parse: (raw, name) => {
        const match = /^(\[[0-9a-fA-F:]+\]|[^:\s/]+):(\d{1,5})$/.exec(raw);
        if (!match || Number(match[2]) > 65535)
          throw new SettingError(`${name} must be host:port (127.0.0.1:9464); got ${JSON.stringify(raw)}`);
        return raw;
      },
    },
  ],
});
