import { byteSize, type SteamWorldState, type WorkshopItem } from './state.js';

/** The ids of the default world, for tests to name what they use. */
export const FAKE_STEAM_IDS = {
  /** The game: owner of the Workshop (consumer app of the default items); not installable anonymously. */
  gameApp: '1000000',
  /** Its dedicated server: needs an account that owns it; branches `public`, `profiling` and `legacy` (password). */
  serverApp: '1000010',
  /** A dedicated server that `+login anonymous` may install. */
  anonymousServerApp: '1000020',
  /** Another game, consumer app of `otherGameItem`. */
  otherApp: '1000030',
  /** Mixed-case folders, meta.cpp and mod.cpp, keys in `Keys/`. */
  coreItem: '2000001',
  /** keys in `keys/` and `optional/server/`. */
  vehiclesItem: '2000002',
  /** No meta.cpp nor mod.cpp (its name is its title), a key at its root. */
  mapItem: '2000003',
  /** meta.cpp without mod.cpp; brings the same key as `coreItem`. */
  soundItem: '2000004',
  /** A Workshop item of `otherApp`. */
  otherGameItem: '2000005',
  /** `coreItem`, `vehiclesItem`, `mapItem`. */
  collection: '3000001',
} as const;

/** The default accounts' passwords and Guard code, for tests to log in with. */
export const FAKE_STEAM_ACCOUNTS = {
  /** Owns the game and its dedicated server. */
  owner: { username: 'garrison_bot', password: 'BotPass-1' },
  /** Owns both too, and needs a Steam Guard code on every login. */
  guarded: { username: 'guarded_admin', password: 'GuardPass-2', guard_code: 'G7K2Q' },
  /** Owns nothing. */
  poor: { username: 'no_games', password: 'NoGames-3' },
} as const;

/** Windows FILETIME of a Unix time, as the game writes `timestamp` in meta.cpp. */
const fileTime = (unixSeconds: number) => (BigInt(unixSeconds) * 10_000_000n + 116_444_736_000_000_000n).toString();
/** A string in the game's config syntax: quotes doubled. */
const cfgString = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function metaCpp(id: string, title: string, timeUpdated: number): string {
  return `protocol = 1;\npublishedid = ${id};\nname = ${cfgString(title)};\ntimestamp = ${fileTime(timeUpdated)};\n`;
}

function modCpp(name: string): string {
  return `name = ${cfgString(name)};\npicture = "logo_ca.paa";\nactionName = "Website";\noverview = "A fake mod.";\n`;
}

const pbo = (name: string, build: number) => `fake pbo ${name} build ${build}\n`;
const bikey = (name: string) => `fake bikey ${name}\n`;

interface ItemSpec {
  id: string;
  app?: string;
  title: string;
  /** mod.cpp's name; absent: no mod.cpp. */
  modName?: string;
  meta?: boolean;
  files: Record<string, string>;
}

/** An item with its meta.cpp and mod.cpp written as the game's launcher writes them. */
export function workshopItem(spec: ItemSpec, timeUpdated: number): WorkshopItem {
  const files = { ...spec.files };
  if (spec.meta !== false) files['meta.cpp'] = metaCpp(spec.id, spec.title, timeUpdated);
  if (spec.modName !== undefined) files['mod.cpp'] = modCpp(spec.modName);
  return {
    app: spec.app ?? FAKE_STEAM_IDS.gameApp,
    title: spec.title,
    description: `${spec.title}, a fake Workshop item.`,
    time_created: timeUpdated - 86_400 * 30,
    time_updated: timeUpdated,
    file_size: byteSize(files),
    visibility: 0,
    files,
  };
}

const ITEMS: ItemSpec[] = [
  {
    id: FAKE_STEAM_IDS.coreItem,
    title: 'Core Library (Workshop)',
    modName: 'Core Library',
    files: {
      'Addons/Core_Main.pbo': pbo('Core_Main', 1),
      'Addons/core_functions.pbo': pbo('core_functions', 1),
      'Keys/CoreLib_v3.bikey': bikey('CoreLib_v3'),
    },
  },
  {
    id: FAKE_STEAM_IDS.vehiclesItem,
    title: 'Tactical Vehicles',
    modName: 'Tactical Vehicles Pack',
    files: {
      'addons/TV_Vehicles.pbo': pbo('TV_Vehicles', 1),
      'keys/tv_2024.bikey': bikey('tv_2024'),
      'optional/server/TV_ServerOnly.bikey': bikey('TV_ServerOnly'),
      'optional/server/tv_server.pbo': pbo('tv_server', 1),
    },
  },
  {
    id: FAKE_STEAM_IDS.mapItem,
    title: 'Map Pack: Islands & Co.',
    meta: false,
    files: { 'Addons/Islands.pbo': pbo('Islands', 1), 'MapPack.bikey': bikey('MapPack') },
  },
  {
    id: FAKE_STEAM_IDS.soundItem,
    title: 'Sound Overhaul',
    files: { 'AddOns/SoundFX.pbo': pbo('SoundFX', 1), 'Keys/CoreLib_v3.bikey': bikey('CoreLib_v3') },
  },
  {
    id: FAKE_STEAM_IDS.otherGameItem,
    app: FAKE_STEAM_IDS.otherApp,
    title: 'Other Game Item',
    modName: 'Other Game Item',
    files: { 'addons/other.pbo': pbo('other', 1) },
  },
];

const BASE_TIME = 1_700_000_000;

export function defaultWorld(): SteamWorldState {
  const { gameApp, serverApp, anonymousServerApp, otherApp } = FAKE_STEAM_IDS;
  const { owner, guarded, poor } = FAKE_STEAM_ACCOUNTS;
  const owns = [gameApp, serverApp];
  const serverFiles = { fakegameserver: '#!/bin/sh\necho fake dedicated server\n', 'keys/fakegame.bikey': bikey('fakegame') };
  return {
    accounts: {
      [owner.username]: { password: owner.password, owns },
      [guarded.username]: { password: guarded.password, guard_code: guarded.guard_code, owns },
      [poor.username]: { password: poor.password, owns: [] },
    },
    apps: {
      [gameApp]: {
        name: 'Fake Game',
        anonymous: false,
        installdir: 'Fake Game',
        branches: { public: { buildid: '20000', timeupdated: BASE_TIME } },
        files: { 'game.bin': 'fake game\n' },
      },
      [serverApp]: {
        name: 'Fake Game Dedicated Server',
        anonymous: false,
        installdir: 'Fake Game Server',
        branches: {
          public: { buildid: '10000', timeupdated: BASE_TIME },
          profiling: { buildid: '10001', timeupdated: BASE_TIME + 60, description: 'Performance binaries' },
          legacy: { buildid: '9000', timeupdated: BASE_TIME - 86_400, password: 'Legacy-Pass', description: 'The previous version' },
        },
        files: serverFiles,
        size: 2_736_373,
      },
      [anonymousServerApp]: {
        name: 'Fake Free Dedicated Server',
        anonymous: true,
        installdir: 'Fake Free Server',
        branches: { public: { buildid: '500', timeupdated: BASE_TIME } },
        files: { freeserver: '#!/bin/sh\necho fake free server\n' },
      },
      [otherApp]: {
        name: 'Other Fake Game',
        anonymous: false,
        installdir: 'Other Fake Game',
        branches: { public: { buildid: '30000', timeupdated: BASE_TIME } },
        files: { 'other.bin': 'other fake game\n' },
      },
    },
    items: Object.fromEntries(ITEMS.map((spec, i) => [spec.id, workshopItem(spec, BASE_TIME + i * 1000)])),
    collections: { [FAKE_STEAM_IDS.collection]: [FAKE_STEAM_IDS.coreItem, FAKE_STEAM_IDS.vehiclesItem, FAKE_STEAM_IDS.mapItem] },
    faults: {},
    delayMs: 0,
    change_number: 21_000_000,
  };
}
