import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * The shared world of the fake `steamcmd` and the fake Steam Web API: one JSON file (`STEAMCMD_FAKE_STATE`),
 * read anew by each fake on each use, so that a test changes Steam between two runs by editing it
 * (through `FakeSteamWorld`).
 */

export interface SteamAccount {
  password: string;
  /** When set, a login must give this Steam Guard code (as the third word of `+login`). */
  guard_code?: string;
  /** A correct code authorises this machine for later logins (steamcmd keeps a sentry): `guard_code` is then cleared. */
  remember_guard?: boolean;
  /** App ids the account owns: the dedicated server's, the game's (for its Workshop items). */
  owns: string[];
}

export interface SteamBranch {
  buildid: string;
  /** Unix seconds. */
  timeupdated: number;
  /** A password-protected beta: `-betapassword` must match. */
  password?: string;
  description?: string;
}

export interface SteamApp {
  name: string;
  /** Whether `+login anonymous` may install it (dedicated servers of some games only). */
  anonymous: boolean;
  installdir: string;
  branches: Record<string, SteamBranch>;
  /** What an install writes into the install folder (relative paths, `/` separated). */
  files: Record<string, string>;
  /** The bytes an update reports in its progress lines; default: the files' size. */
  size?: number;
}

export interface ItemFaults {
  /** The next N downloads fail with `(Timeout)`; counted down in the state by each failed attempt. */
  timeouts?: number;
  /** Every download fails with `(Failure)`. */
  fail?: boolean;
}

export interface WorkshopItem {
  /** The consumer app (the game whose Workshop it is in). */
  app: string;
  title: string;
  description?: string;
  /** Unix seconds. */
  time_created: number;
  time_updated: number;
  /** The sum of the files' bytes, kept by FakeSteamWorld. */
  file_size: number;
  /** 0 public; anything else is not downloadable (`Access Denied`). */
  visibility?: number;
  files: Record<string, string>;
  faults?: ItemFaults;
}

/** An app update that ends in a failed state (`Error! App '<id>' state is 0x<state> after update job.`). */
export interface AppFault {
  state: number;
  /** How many more updates fail; absent: every one. */
  times?: number;
}

export interface WorldFaults {
  /** The next N logins with an account answer `FAILED (Rate Limit Exceeded)`. */
  rate_limit?: number;
  apps?: Record<string, AppFault>;
}

export interface SteamWorldState {
  accounts: Record<string, SteamAccount>;
  apps: Record<string, SteamApp>;
  items: Record<string, WorkshopItem>;
  collections: Record<string, string[]>;
  faults: WorldFaults;
  /** The pause between two progress lines of an update or a download, so that a test sees progress and can cancel. */
  delayMs: number;
  /** Bumped by each change of an app (the change number `app_info_print` shows). */
  change_number: number;
}

class StateError extends Error {}

/** The state as it is now on disk. */
export function readState(path: string): SteamWorldState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new StateError(`cannot read the fake Steam state ${path}: ${(err as Error).message}`);
  }
  const state = JSON.parse(text) as SteamWorldState;
  for (const key of ['accounts', 'apps', 'items', 'collections', 'faults'] as const) {
    if (typeof state[key] !== 'object' || state[key] === null) throw new StateError(`the fake Steam state ${path} has no ${key}`);
  }
  return state;
}

/** Writes the whole state through a temporary file and a rename, so that a fake reading it never sees half a file. */
export function writeState(path: string, state: SteamWorldState): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(temp, path);
}

/** Reads, changes and writes back at once: a fake's own bookkeeping (fault counters) keeps what a test wrote meanwhile. */
export function updateState(path: string, change: (state: SteamWorldState) => void): SteamWorldState {
  const state = readState(path);
  change(state);
  writeState(path, state);
  return state;
}

export const byteSize = (files: Record<string, string>) =>
  Object.values(files).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
