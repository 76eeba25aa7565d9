import type { ConfigValues, EnabledMod } from './contract.js';
import type { ImportRefusal, ImportServerRequest, ImportSettingAt } from '../schemas/import.js';

/** What an admin points an import at: the request without what only the service uses. */
export type ImportSource = Omit<ImportServerRequest, 'name' | 'dry_run' | 'game_port' | 'rcon_port'>;

/** What an adapter read from an existing installation; the service merges `sections` over the defaults. */
export interface ImportDraft {
  /** The name players see (hostname), when the files give one. */
  name: string | null;
  game_port: number | null;
  rcon_port: number | null;
  /** Per section, only the values read (each already checked against its field). */
  sections: ConfigValues;
  /** The rotation read: each mission with its rotation options in their stored form (`{name, difficulty}`). */
  rotation: ({ name: string } & Record<string, string>)[];
  mods: (EnabledMod & { installed: boolean })[];
  /**
   * The game's ban files found for this installation, each taken over as it is to where the server's
   * ban file of its identity kind is (`banFilePath(ctx, kind)`: a game with one file for every kind names
   * it once), and how many bans they hold in all.
   */
  bans: { files: { file: string; kind: string }[]; count: number };
  missions: string[];
  files: { role: string; path: string; found: boolean }[];
  unknown: ImportSettingAt[];
  refused: ImportRefusal[];
  warnings: string[];
}

/** Reads an existing installation of the game (an optional member of `config_generator`). */
export interface ServerImporter {
  read(source: ImportSource, files: ImportFileAccess): Promise<ImportDraft>;
}

/**
 * The only way an importer reads the installation (`@garrison/server/import-files` is the service's):
 * inside the game folder, a bounded size, as text.
 */
export interface ImportFileAccess {
  /** The game folder, links resolved. */
  readonly root: string;
  /** A path as written in a file or a command line: relative ones are the game folder's, `\\` a separator. */
  resolve(path: string): string;
  /** Where `path` really is when inside the game folder; why not otherwise. */
  inside(path: string): { path: string } | { refused: string };
  /** A file the admin named (`field`): 400 `VALIDATION_ERROR` naming the field when it cannot be read. */
  readNamed(path: string, field: string): { path: string; text: string };
  /** A file in its usual place, or null when there is none (or it lies outside the game folder). */
  readUsual(path: string, field: string): { path: string; text: string } | null;
  /** The names in a folder inside the game folder (none when it is missing). */
  list(folder: string): string[];
  join(...parts: string[]): string;
}
