import type { FeatureModule } from '../modules/feature-module.js';
import { PrometheusInstruments } from './instruments.js';
import { ServerFigures } from './server-figures.js';

export const prometheusModule: FeatureModule = {
  name: 'prometheus',
  // It counts restarts from the audit trail's events.
  needs: ['jobs', 'audit'],
  services: [PrometheusInstruments, ServerFigures],
  parts: (c) => [['prometheus', c.resolve(ServerFigures)]],
};
