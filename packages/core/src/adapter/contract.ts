import type { Static, TObject } from '../typebox.js';

/** Bumped whenever the adapter contract changes incompatibly; the loader refuses adapters built for another. */
export const ADAPTER_API_VERSION = 1;

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
  server: { id: number; name: string; exe_path: string; game_port: number; rcon_port: number };
  /** The server's own folder under the data dir: generated files live here. */
  serverDir: string;
  /** The folder that holds the server executable. */
  exeDir: string;
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
  /** Labels of the rendered files an admin may download (`/config/download/{filename}`); all when absent. */
  readonly downloadable?: readonly string[];
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
}

export interface LaunchOptions {
  mods?: { name: string; is_server_mod: boolean }[];
}

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface LogEntry {
  level: LogLevel;
  message: string;
}

export interface LogParser {
  /** Folder the game writes its log files into. */
  logDirectory(ctx: ServerContext): string;
  readonly logFileExtension: string;
  /** One line of output as a log entry, or null for a line not worth reporting. */
  parseLine(line: string): LogEntry | null;
}

export interface LivePlayer {
  slot_id: string;
  name: string;
  ping: number;
  guid: string | null;
}

export interface RemoteAdminTarget {
  host: string;
  port: number;
  password: string;
}

export interface RemoteAdminSession {
  /** Runs a command and resolves with its answer; rejects after the session's time-out, never hangs. */
  command(text: string): Promise<string>;
  /** Server messages pushed by the game (player joins, chat…). Returns an unsubscribe function. */
  onMessage(listener: (message: string) => void): () => void;
  close(): Promise<void>;
}

export interface RemoteAdmin {
  connect(target: RemoteAdminTarget): Promise<RemoteAdminSession>;
  /** Reads the answer of the game's player-list command. */
  parsePlayers(answer: string): LivePlayer[];
  /** Where the remote-admin password and port live in the config. */
  target(config: ConfigValues, ctx: ServerContext): RemoteAdminTarget | null;
  /** The command that asks the game to shut down cleanly; without one a stop sends SIGTERM. */
  readonly shutdownCommand?: string;
  /** The game's commands, as templates (`#mission <NAME.TERRAIN> [difficulty]`), offered by command lines. */
  readonly knownCommands?: readonly string[];
  /** The command that kicks the player in a slot. */
  kickCommand?(slotId: string, reason: string): string;
  /** The command that shows a message to every player. */
  sayCommand?(message: string): string;
  /** Reads a server message about a player joining or leaving, so that a short visit between two polls is seen. */
  parsePlayerEvent?(message: string): PlayerEvent | null;
}

export type PlayerEvent =
  | { kind: 'joined'; slot_id: string; name: string }
  | { kind: 'guid'; slot_id: string; name: string; guid: string }
  | { kind: 'left'; slot_id: string; name: string };

export interface MissionName {
  name: string;
  terrain: string;
}

export interface MissionManager {
  readonly missionExtension: string;
  missionDirectory(ctx: ServerContext): string;
  /** Name and terrain of a mission file; throws `ADAPTER_ERROR` for a name the game would not load. */
  parseMissionFilename(filename: string): MissionName;
  /** Where the rotation (an array of `{name, difficulty}`) lives in the config. */
  readonly rotation: { section: string; field: string };
}

export interface ModManager {
  modDirectory(ctx: ServerContext): string;
  isModFolder(name: string): boolean;
  /** Where the enabled list (`{name, is_server_mod}` entries, or an older bare list of names) lives in the config. */
  readonly enabled: { section: string; field: string };
  /**
   * Names of the launch arguments (`-name=value`) that carry the enabled mods, for a game that takes them
   * on its command line: the config preview shows each one present under its name.
   */
  readonly modArguments?: readonly string[];
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

export interface BanEntry {
  /** GUID or IP address. */
  guid: string;
  reason: string;
  /** Null when permanent. */
  expires_at: Date | null;
}

export interface BanManager {
  banFilePath(ctx: ServerContext): string;
  renderBanFile(bans: BanEntry[]): string;
  /** The remote-admin command that makes a running game read its ban file again. */
  readonly reloadCommand?: string;
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

export interface AdapterDefinition {
  apiVersion: number;
  identity: AdapterIdentity;
  /** The capabilities this adapter has, each by its spec name, with its implementation. */
  capabilities: Partial<CapabilityMap>;
}

/** Members the loader checks on each declared capability before accepting an adapter. */
export const CAPABILITY_MEMBERS: { readonly [C in Capability]: readonly (keyof CapabilityMap[C])[] } = {
  config_generator: ['sections', 'generateCredentials', 'render'],
  process_config: ['allowedExecutables', 'launchArguments'],
  log_parser: ['logDirectory', 'logFileExtension', 'parseLine'],
  remote_admin: ['connect', 'parsePlayers', 'target'],
  mission_manager: ['missionExtension', 'missionDirectory', 'parseMissionFilename', 'rotation'],
  mod_manager: ['modDirectory', 'isModFolder', 'enabled'],
  ban_manager: ['banFilePath', 'renderBanFile'],
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
