import { declareSettings, integer } from '../setting-specs.js';

export interface HistorySettings {
  /** The audit trail and the player history are kept this long. */
  historyRetentionDays: number;
}

export const historySettings = declareSettings<HistorySettings>({
  feature: 'audit',
  defaults: { historyRetentionDays: 180 },
  specs: [
    {
      key: 'historyRetentionDays',
      env: 'GARRISON_HISTORY_RETENTION_DAYS',
      meaning: 'audit trail and player history kept',
      parse: integer(1),
    },
  ],
});
