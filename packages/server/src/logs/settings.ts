import { declareSettings, integer } from '../setting-specs.js';

/** How many of a game's log lines are kept and streamed, and for how long. */
export interface LogSettings {
  /** At most this many log lines a second are kept and sent per server; the rest are counted and dropped. */
  logLinesPerSecond: number;
  /** Stored log lines kept per server, and for how long. */
  logRetentionLines: number;
  logRetentionDays: number;
}

export const logSettings = declareSettings<LogSettings>({
  feature: 'logs',
  defaults: { logLinesPerSecond: 200, logRetentionLines: 10_000, logRetentionDays: 14 },
  specs: [
    {
      key: 'logLinesPerSecond',
      env: 'GARRISON_LOG_LINES_PER_SECOND',
      meaning: 'game log lines kept and streamed per server and second',
      doc: { meaning: 'game log lines kept and streamed per server and second; more are dropped with a notice' },
      parse: integer(1),
    },
    {
      key: 'logRetentionLines',
      env: 'GARRISON_LOG_RETENTION_LINES',
      meaning: 'stored game log lines per server',
      doc: { meaning: 'stored log lines per server' },
      parse: integer(1),
    },
    {
      key: 'logRetentionDays',
      env: 'GARRISON_LOG_RETENTION_DAYS',
      meaning: 'stored game log lines are deleted after this',
      doc: { meaning: 'stored log lines are deleted after this' },
      parse: integer(1),
    },
  ],
});
