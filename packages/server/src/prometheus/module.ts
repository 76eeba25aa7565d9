import type { FeatureModule, NoRepositories } from '../modules/feature-module.js';
import { prometheusSettings, type PrometheusSettings } from './settings.js';
import { PrometheusInstruments } from './instruments.js';
import { ServerFigures } from './server-figures.js';

export const prometheusModule: FeatureModule<NoRepositories, PrometheusSettings> = {
  name: 'prometheus',
  settings: prometheusSettings,
  // It counts restarts from the audit trail's events.
  needs: ['jobs', 'audit'],
  services: [PrometheusInstruments, ServerFigures],
  parts: (c) => [['prometheus', c.resolve(ServerFigures)]],
};
