import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ApiError, errnoOf, isMissing } from '@garrison/core';
import type { ServerSettings } from './settings.js';
import { sqliteFileOf, type DataSettings } from '../db/settings.js';
import type { BackupSettings } from '../backups/settings.js';

/** What the game roots are made of: the setting, and the service's own folders they must stay out of. */
export type GameRootSettings = Pick<ServerSettings, 'gameRoots'> &
  Pick<DataSettings, 'dataDir' | 'databaseUrl'> &
  Pick<BackupSettings, 'backupDir'>;

/** A folder no executable and no imported file may come from, and why. */
export interface RefusedFolder {
  folder: string;
  why: string;
}

/**
 * Where a path really is, links followed: the real path of its nearest existing ancestor, then the
 * rest as written (an executable may be named before it is installed).
 */
export function realPathOf(path: string): string {
  const wanted = resolve(path);
  let existing = wanted;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch (err) {
      if (!isMissing(err) && errnoOf(err) !== 'EACCES') throw err; // not there (yet), or not ours to look into: its parent tells
      const parent = dirname(existing);
      if (parent === existing) return wanted;
      rest.push(basename(existing));
      existing = parent;
    }
  }
}

/** Whether `path` is `folder` or lies inside it (both real paths). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Where game servers may live on this host. With GARRISON_GAME_ROOTS, inside one of those folders only;
 * always outside the folders of the service's own secrets (the data dir with the signing secret and the
 * database, the backup dir, the SQLite file's folder, systemd's credentials): an executable there would
 * make that folder a game folder, whose files an import reads and a start writes beside.
 */
export class GameRoots {
  readonly roots: string[] | null;
  readonly refused: RefusedFolder[];

  constructor(settings: GameRootSettings, env: NodeJS.ProcessEnv = process.env) {
    this.roots = settings.gameRoots.length ? settings.gameRoots.map((r) => realPathOf(r)) : null;
    const own: RefusedFolder[] = [
      { folder: settings.dataDir, why: "Garrison's data dir" },
      { folder: settings.backupDir ?? join(settings.dataDir, 'backups'), why: "Garrison's backup dir" },
    ];
    const sqliteFile = settings.databaseUrl === null ? null : sqliteFileOf(settings.databaseUrl);
    if (sqliteFile !== null) own.push({ folder: dirname(sqliteFile), why: "the folder of Garrison's database" });
    if (env.CREDENTIALS_DIRECTORY) own.push({ folder: env.CREDENTIALS_DIRECTORY, why: "Garrison's credentials folder" });
    this.refused = own.map((r) => ({ ...r, folder: realPathOf(r.folder) }));
  }

  /** Why a path (an executable, or a file an import reads) may not be used; null when it may. */
  problem(path: string): string | null {
    if (/^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\')) return this.roots ? `${path} is not a path on this host` : null;
    const real = realPathOf(path.replace(/\\/g, '/'));
    const refused = this.refused.find((r) => isWithin(real, r.folder));
    if (refused) return `${path} is in ${refused.why}, where no game may live`;
    if (this.roots && !this.roots.some((root) => isWithin(real, root)))
      return `${path} is outside the game roots (GARRISON_GAME_ROOTS: ${this.roots.join(':')})`;
    return null;
  }

  /** 400 EXE_NOT_ALLOWED for an executable outside the game roots or in one of the service's own folders. */
  assertExecutable(exePath: string): void {
    const problem = this.problem(exePath);
    if (problem) throw new ApiError('EXE_NOT_ALLOWED', `executable ${problem}`);
  }
}
