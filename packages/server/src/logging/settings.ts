import { declareSettings, oneOf, SettingError } from '../setting-specs.js';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** How the service's own log is written (logger.ts). */
export interface LoggingSettings {
  logLevel: string;
  /** JSON lines for machines, one readable line per entry for people; null picks by whether stdout is a terminal. */
  logFormat: LogFormat | null;
}

export const loggingSettings = declareSettings<LoggingSettings>({
  feature: 'logging',
  defaults: { logLevel: 'info', logFormat: null },
  specs: [
    {
      key: 'logLevel',
      env: 'GARRISON_LOG_LEVEL',
      flag: 'log-level',
      meaning: LOG_LEVELS.join(', '),
      doc: {
        meaning: `${LOG_LEVELS.slice(0, -1)
          .map((l) => `\`${l}\``)
          .join(', ')} or \`${LOG_LEVELS.at(-1)}\``,
      },
      parse: oneOf(LOG_LEVELS),
    },
    {
      key: 'logFormat',
      env: 'GARRISON_LOG_FORMAT',
      flag: 'log-format',
      shownDefault: 'pretty on a terminal, else json',
      meaning: 'json (one JSON object a line) or pretty (one readable line an entry)',
      doc: {
        meaning: '`json`: one JSON object a line, ISO times; `pretty`: one readable line an entry',
        default: '`pretty` on a terminal, else `json`',
      },
      parse: oneOf(LOG_FORMATS),
    },
  ],
  settle({ logLevel }) {
    if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
      throw new SettingError(`the log level must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(logLevel)}`);
    }
  },
});
