import type { Static, TObject } from '../typebox.js';
import type { BanManager } from './bans.js';
import type { IdentityKind } from './identity.js';
import type { ServerImporter } from './import.js';
import type { LogParser } from './logs.js';
import type { MissionManager } from './missions.js';
import type { RemoteAdmin } from './remote-admin.js';
import type { SteamDeclaration } from './steam.js';

/** Bumped whenever the adapter contract changes incompatibly; the loader refuses adapters built for another. */
export const ADAPTER_API_VERSION = 2;

export const CAPABILITIES = [
  'config_generator',
  'process_config',
  'log_parser',
  'remote_admin',
  'mission_manager',
  'mod_manager',
  'ban_manager',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export interface AdapterIdentity {
  game_type: string;
  display_name: string;
  version: string;
  schema_version: string;
}

/** What an adapter may know of the server it works for: a plain object, never the service's internals. */
export interface ServerContext {
  server: {
    id: number;
    name: string;
    exe_path: string;
    game_port: number;
    rcon_port: number;
    /** Headless clients the server runs (0 when absent). */ headless_clients?: number;
  };
  /** The server's own folder under the data dir: generated files live here. */
  serverDir: string;
  /** The folder that holds the server executable. */
  exeDir: string;
  /**
   * Null (or absent) for the server that had its installation to itself when it was made: it keeps the
   * game's usual folders there. Any further server on the same installation has a key of its own (stable:
   * kept when the first server goes), from which the adapter names that server's own folders in the
   * installation, so that two servers never write one profile or one log folder.
   */
  installationKey?: string | null;
}

/** Section name → field name → value, with secrets in plain text (never shown to a reader as such). */
export type ConfigValues = Record<string, Record<string, unknown>>;

export interface RenderedFile {
  /** Name shown in the preview (`server.cfg`). */
  label: string;
  /** Absolute path the file is written to. */
  path: string;
  content: string;
}

export type ConfigSections = Readonly<Record<string, TObject>>;

/** The config a `render` receives, typed from the adapter's own sections: a misspelt field fails `tsc`. */
export type ConfigOf<S extends ConfigSections> = { [K in keyof S]: Static<S[K]> };

export interface ConfigGenerator<S extends ConfigSections = ConfigSections> {
  /** Section name → closed TypeBox object of its fields (with defaults and widget hints). */
  readonly sections: S;
  /** Fresh secrets for a new server: section → field → value. Returned once, in the creation response. */
  generateCredentials(): ConfigValues;
  /** The game's config files for these values, in the game's own syntax. */
  render(config: ConfigOf<S>, ctx: ServerContext): RenderedFile[];
  /**
   * What the section's schema cannot see is wrong with its values (raw lines that would not parse, a key
   * set twice), or null. Checked before a change is saved (422 `INVALID_CONFIG`) and before a start.
   */
  checkSection?(section: string, values: Record<string, unknown>): string | null;
  /** Labels of the rendered files an admin may download (`/config/download/{filename}`); all when absent. */
  readonly downloadable?: readonly string[];
  /** What a server list shows of the config at a glance: the name players see and the player limit. */
  glance?(config: ConfigValues): { hostname?: string; max_players?: number };
  /** Reads an installation of the game that runs without Garrison, for `POST /servers/import`. */
  readonly importer?: ServerImporter;
}

export interface ProcessConfig {
  /** Executable file names a server of this type may run. */
  readonly allowedExecutables: readonly string[];
  /** Command-line arguments for the executable, built from the config. */
  launchArguments(config: ConfigValues, ctx: ServerContext, options?: LaunchOptions): string[];
  /**
   * The readiness probe: one attempt, true once the game serves. The supervisor calls it again until it
   * passes or the start time-out ends. Without one, a spawned process counts as running at once.
   */
  isReady?(config: ConfigValues, ctx: ServerContext): Promise<boolean>;
  /**
   * The arguments of headless client `index` (1…), an extra process of the same executable that joins the
   * running server to run AI. Without it, the game type has no headless clients.
   */
  headlessArguments?(config: ConfigValues, ctx: ServerContext, options: HeadlessOptions): string[];
  /** What a backup of a server holds (its state: profiles, generated files, bans); without it, a backup holds the server's own folder. */
  backupParts?(ctx: ServerContext): BackupPart[];
  /**
   * Gives a server that shared its installation's folders (`shared`: its context without a key) folders of
   * its own (`own`: with its key), for servers made before each had its own: copies what the game keeps
   * of the server there (its profile, the game's own lines in it), never removes or changes the shared
   * files, and may run again after an interruption. Returns the folders written, for the service's log.
   */
  separateFolders?(shared: ServerContext, own: ServerContext): Promise<string[]>;
}

/**
 * One folder of a backup, stored under `name` in the archive. A restore puts back each of its top-level
 * entries that the archive holds, whole, and leaves the others.
 */
export interface BackupPart {
  name: string;
  root: string;
  /** Only these top-level entries of `root` (all when absent). */
  entries?: readonly string[];
  /** File name patterns left out (`*.rpt`): what the game writes again, or what is too big to keep. */
  exclude?: readonly string[];
  /** The mission files: in a backup only when asked for. */
  missions?: boolean;
  /**
   * Where a path of the archive (relative to the part, `/`-separated) goes now, for a backup made when
   * the server's files had other names (its profile in the folder it shared before it had its own):
   * the path it has now, or the same path.
   */
  rename?(path: string): string;
}

export interface HeadlessOptions {
  /** 1 for the first headless client. */
  index: number;
  /** The headless client's own folder (its profile and logs). */
  profileDir: string;
  /** The enabled mods; a headless client loads the client mods, never the server's own. */
  mods: { name: string; is_server_mod: boolean }[];
}

export interface LaunchOptions {
  mods?: { name: string; is_server_mod: boolean }[];
}

export interface ModManager {
  modDirectory(ctx: ServerContext): string;
  isModFolder(name: string): boolean;
  /** Why a name cannot be enabled as a mod folder (`cannot contain ";"…`), or null when it can. */
  modNameProblem?(name: string): string | null;
  /** Where the enabled list (`{name, is_server_mod}` entries, or an older bare list of names) lives in the config. */
  readonly enabled: { section: string; field: string };
  /**
   * Names of the launch arguments (`-name=value`) that carry the enabled mods, for a game that takes them
   * on its command line: the config preview shows each one present under its name.
   */
  readonly modArguments?: readonly string[];
  /**
   * What a mod folder says of itself (its Workshop id and display name, from the files the game's
   * launcher reads), for `GET /mods` and Launcher presets; null members when it does not say.
   */
  describeMod?(folder: string): Promise<ModDescription>;
  /** The game launcher's mod lists (presets) its players share: read, and written for the enabled mods. */
  readonly launcherPreset?: LauncherPresetFormat;
}

/** One mod of a launcher preset: from the Workshop (its id) or local (its folder). */
export interface PresetMod {
  name: string;
  workshop_id: string | null;
  local_folder: string | null;
}

export interface LauncherPreset {
  kind: string;
  name: string | null;
  mods: PresetMod[];
  dlc: { app_id: string; name: string }[];
}

export interface LauncherPresetFormat {
  /** The preset's mods and DLC; 400 `VALIDATION_ERROR` with the reason for a document that is not one. */
  parse(document: string): LauncherPreset;
  /** A preset the launcher loads, holding these mods. */
  render(name: string, mods: PresetMod[]): string;
  /** The media type and file extension of a preset document. */
  readonly mediaType: string;
  readonly extension: string;
}

export interface ModDescription {
  workshop_id: string | null;
  display_name: string | null;
  /**
   * The name a Workshop download's folder is made from, when its files give one apart from its display name
   * (the name the game's launcher wrote from the Workshop title); optional: without it, the display name,
   * else the item's title, is used.
   */
  folder_name?: string | null;
}

export interface EnabledMod {
  name: string;
  is_server_mod: boolean;
}

/** The enabled list as stored, in its current form: a bare name (the older form) is a client mod. */
export function enabledModsOf(stored: unknown): EnabledMod[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry): EnabledMod[] => {
    if (typeof entry === 'string') return [{ name: entry, is_server_mod: false }];
    if (entry && typeof entry === 'object' && typeof (entry as EnabledMod).name === 'string') {
      return [{ name: (entry as EnabledMod).name, is_server_mod: (entry as EnabledMod).is_server_mod === true }];
    }
    return [];
  });
}

export interface CapabilityMap {
  config_generator: ConfigGenerator;
  process_config: ProcessConfig;
  log_parser: LogParser;
  remote_admin: RemoteAdmin;
  mission_manager: MissionManager;
  mod_manager: ModManager;
  ban_manager: BanManager;
}

/**
 * What the console shows of a game that no schema says: words and examples, never rules (the rules are
 * the capabilities'). Served by `GET /games/{game}`.
 */
export interface GamePresentation {
  /** An example executable path for the create form (`/srv/gamea/gameaserver_x64.exe`). */
  exampleExePath?: string;
  /**
   * What a restore of a backup overwrites of a server, in a few words that follow `<server>'s`
   * (`profile (player persistence), its generated config files`).
   */
  backupContents?: string;
  /** The files an import reads from the folder of the executable (`server.cfg, the profile and the ban file`). */
  importFiles?: string;
  /** A start command as an admin keeps it, for the import form (`server.exe -port=2302 -config=server.cfg`). */
  exampleCommandLine?: string;
}

export interface AdapterDefinition {
  apiVersion: number;
  identity: AdapterIdentity;
  /**
   * The kinds of identity by which the game knows players and bans takes them, the first being what a
   * ban takes by default. Required with `remote_admin` or `ban_manager`.
   */
  identities?: readonly IdentityKind[];
  presentation?: GamePresentation;
  /** Its Steam apps, to install the server and its Workshop mods (optional: no version bump). */ steam?: SteamDeclaration;
  /** The capabilities this adapter has, each by its spec name, with its implementation. */
  capabilities: Partial<CapabilityMap>;
}

/** Members the loader checks on each declared capability before accepting an adapter. */
export const CAPABILITY_MEMBERS: { readonly [C in Capability]: readonly (keyof CapabilityMap[C])[] } = {
  config_generator: ['sections', 'generateCredentials', 'render'],
  process_config: ['allowedExecutables', 'launchArguments'],
  log_parser: ['logDirectory', 'isLogFile', 'parseLine'],
  remote_admin: ['connect', 'listPlayers', 'target'],
  mission_manager: ['missionExtension', 'missionDirectory', 'parseMissionFilename', 'rotation', 'rotationOptions'],
  mod_manager: ['modDirectory', 'isModFolder', 'enabled'],
  ban_manager: ['banFilePath', 'parseBanLine', 'formatBanLine'],
};

const ADAPTER_BRAND = Symbol.for('garrison.adapter');

/** A config generator whose `render` gets its config typed from `sections`. */
export function defineConfigGenerator<const S extends ConfigSections>(generator: ConfigGenerator<S>): ConfigGenerator<S> {
  return generator;
}

/** What an adapter package default-exports. */
export function defineAdapter<A extends AdapterDefinition>(definition: A): A {
  return Object.assign(definition, { [ADAPTER_BRAND]: true });
}

export function isAdapterDefinition(value: unknown): value is AdapterDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ADAPTER_BRAND] === true;
}

/** The audit trail's form of a command for a game without its own rule: what follows a word about a password is masked. */
export function redactPasswords(command: string): string {
  const words = command.split(/(\s+)/);
  let masking = false;
  return words
    .map((word) => {
      if (/^\s+$/.test(word)) return word;
      if (masking) return '***';
      if (!/pass/i.test(word)) return word;
      masking = true;
      return word.replace(/([=:]).+$/, '$1***'); // `password=x` carries its value in the same word
    })
    .join('');
}
