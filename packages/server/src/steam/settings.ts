import { join, resolve } from 'node:path';
import { declareSettings, SettingError, text, type SettingSpec } from '../setting-specs.js';
import type { DataSettings } from '../db/settings.js';

/** Where SteamCMD is, where it keeps the Workshop's downloads, and which Steam Web API to ask. */
export interface SteamSettings {
  steamcmdPath: string;
  /** Without a trailing slash. */
  steamApiUrl: string;
  /** Absolute once settled: `<data dir>/steam` unless set. */
  steamDir: string;
}

/** An http(s) URL, kept without its trailing slash (paths are appended to it). */
const baseUrl: SettingSpec<'steamApiUrl', string>['parse'] = (raw, name) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    throw new SettingError(`${name} must be an http(s) URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SettingError(`${name} must be an http(s) URL, got ${raw}`);
  return raw.replace(/\/+$/, '');
};

export const steamSettings = declareSettings<SteamSettings>({
  feature: 'steam',
  // An empty steamDir is "not set": settle puts it in the data dir, which is known only once that is settled.
  defaults: { steamcmdPath: 'steamcmd', steamApiUrl: 'https://api.steampowered.com', steamDir: '' },
  specs: [
    {
      key: 'steamcmdPath',
      env: 'GARRISON_STEAMCMD_PATH',
      meaning: 'the steamcmd executable that installs and updates game servers and Workshop mods (a name is looked up on the PATH)',
      doc: {
        meaning:
          'the `steamcmd` executable that installs and updates game servers and Workshop mods; a bare name is looked up on the ' +
          '`PATH` (docs/operations.md, Background jobs)',
        default: '`steamcmd`',
      },
      parse: text,
    },
    {
      key: 'steamApiUrl',
      env: 'GARRISON_STEAM_API_URL',
      meaning: "base URL of the Steam Web API, asked for Workshop items' details and collections",
      doc: { meaning: "base URL of the Steam Web API, asked for Workshop items' details and collections (no key needed)" },
      parse: baseUrl,
    },
    {
      key: 'steamDir',
      env: 'GARRISON_STEAM_DIR',
      shownDefault: '<data dir>/steam',
      meaning: 'where SteamCMD keeps its Workshop downloads (mods are linked into the servers from here)',
      doc: { default: '`<data dir>/steam`' },
      parse: text,
    },
  ],
  settle(steam) {
    steam.steamApiUrl = baseUrl(steam.steamApiUrl, 'steamApiUrl');
    // The composed settings are one object: the data dir, settled before any feature's, is on it.
    const { dataDir } = steam as SteamSettings & Partial<DataSettings>;
    steam.steamDir = steam.steamDir ? resolve(steam.steamDir) : join(dataDir ?? resolve('./data'), 'steam');
  },
});
