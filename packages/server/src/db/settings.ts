import { resolve } from 'node:path';
import { declareSettings, text } from '../setting-specs.js';

/** Where the service keeps its data: the data dir (secrets, servers' folders) and the database. */
export interface DataSettings {
  dataDir: string;
  /** `sqlite:<file>` or `mysql://user:pass@host:3306/db`; null means `garrison.db` in the data dir. */
  databaseUrl: string | null;
}

/** The file a `sqlite:<file>` (or `sqlite://<file>`) database URL names, resolved; null for a URL of another database. */
export const sqliteFileOf = (url: string): string | null =>
  url.startsWith('sqlite:') ? resolve(url.slice('sqlite:'.length).replace(/^\/\//, '')) : null;

export const dataSettings = declareSettings<DataSettings>({
  feature: 'data',
  defaults: { dataDir: './data', databaseUrl: null },
  specs: [
    {
      key: 'dataDir',
      env: 'GARRISON_DATA_DIR',
      flag: 'data-dir',
      meaning: "database file, JWT secret, servers' folders (created 0700)",
      parse: text,
    },
    {
      key: 'databaseUrl',
      env: 'GARRISON_DATABASE_URL',
      flag: 'database',
      shownDefault: 'SQLite garrison.db in the data dir',
      meaning: 'mysql://user:pass@host:3306/db for MySQL/MariaDB, or sqlite:/path/file.db',
      doc: {
        meaning: '`mysql://user:pass@host:3306/db` for MySQL/MariaDB, or `sqlite:/path/file.db`',
        default: 'SQLite `garrison.db` in the data dir',
      },
      parse: text,
    },
  ],
  settle(data) {
    data.dataDir = resolve(data.dataDir);
  },
});
