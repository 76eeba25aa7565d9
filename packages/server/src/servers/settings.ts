import { isAbsolute } from 'node:path';
import { declareSettings, SettingError, text } from '../setting-specs.js';

/** What a server is created with when the request does not say, and where its files may be. */
export interface ServerSettings {
  /** The game type of a server created without one: the one place a game is named outside the adapters. */
  defaultGameType: string;
  /** Folders every executable and every imported file must be in (links followed); empty: anywhere but the service's own folders. */
  gameRoots: string[];
}

export const serverSettings = declareSettings<ServerSettings>({
  feature: 'servers',
  defaults: { defaultGameType: 'gamea', gameRoots: [] },
  specs: [
    {
      key: 'defaultGameType',
      env: 'GARRISON_DEFAULT_GAME',
      formerEnv: 'GARRISON_DEFAULT_GAME_TYPE',
      meaning: 'the game type of a server created without one',
      doc: { meaning: 'the game type of a server created without one (`GARRISON_DEFAULT_GAME_TYPE`, its former name, is read too)' },
      parse: text,
    },
    {
      key: 'gameRoots',
      env: 'GARRISON_GAME_ROOTS',
      shownDefault: 'none (anywhere but the data, backup and secrets folders; a warning at start)',
      meaning:
        ':-separated absolute folders: every server executable (create, update, start, import) and every file an import reads ' +
        'must be inside one, links followed',
      doc: {
        meaning:
          "absolute folders separated by `:` (`/srv/games:/opt/servers`): every server's executable (create, update, start, import) " +
          'and every file an import reads must be inside one of them, links followed (a link out of a root is outside). Unset: ' +
          "anywhere but Garrison's data dir, backup dir, the SQLite file's folder and `$CREDENTIALS_DIRECTORY`, which are refused " +
          'either way. Set it: see [deploying](deploy.md) and [import](import.md)',
        default: 'none (a warning at start)',
      },
      parse: (raw, name) => {
        const roots = raw
          .split(':')
          .map((r) => r.trim())
          .filter(Boolean);
        const relative = roots.find((r) => !isAbsolute(r));
        if (relative !== undefined || !roots.length) {
          throw new SettingError(`${name} must be absolute folders separated by ':' (/srv/games:/opt/servers); got ${JSON.stringify(raw)}`);
        }
        return roots;
      },
    },
  ],
});
