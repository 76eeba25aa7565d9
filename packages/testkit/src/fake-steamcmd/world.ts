import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultWorld, metaCpp, workshopItem } from './default-world.js';
import { byteSize, readState, updateState, writeState, type SteamAccount, type SteamApp, type SteamWorldState } from './state.js';

/** The failed states of an app update the fake can end in (`Error! App '<id>' state is 0x… after update job.`). */
export const APP_UPDATE_STATES = {
  /** Not enough disk space. */
  diskFull: 0x202,
  /** Connection to Steam lost. */
  network: 0x402,
  /** Update required but not completed (network). */
  networkIncomplete: 0x602,
} as const;

export type SteamFault =
  /** The next `times` (1) logins with an account fail `(Rate Limit Exceeded)`. */
  | { kind: 'rate_limit'; times?: number }
  /** The next `times` updates of `app` (every one when absent) end in `state`. */
  | { kind: 'app_state'; app: string; state: number; times?: number }
  /** The next `count` downloads of `item` fail `(Timeout)`, then they succeed. */
  | { kind: 'item_timeouts'; item: string; count: number }
  /** Downloads of `item` fail `(Failure)` until set back with `fail: false`. */
  | { kind: 'item_fail'; item: string; fail?: boolean };

/** One run of the fake steamcmd, from `STEAMCMD_FAKE_LOG`: its arguments with every secret as `***`. */
export interface SteamInvocation {
  /** The commands that ran, as a command line: a `+runscript`'s commands in its place. */
  argv: string[];
  /** The process's own arguments. */
  cmdline: string[];
  /** The names of the variables of its environment (not their values). */
  env: string[];
  /** ISO time of the start. */
  time: string;
  /** The exit code, or the signal's name. */
  exit_code: number | string;
  pid: number;
}

export interface NewItem {
  app?: string;
  title: string;
  /** Files beside meta.cpp and mod.cpp; default: one `addons/<Title>.pbo`. */
  files?: Record<string, string>;
  /** mod.cpp's name; absent: no mod.cpp. */
  modName?: string;
  /** Whether a meta.cpp is written (default true). */
  meta?: boolean;
  time_updated?: number;
  visibility?: number;
}

const now = () => Math.floor(Date.now() / 1000);

/**
 * The Steam the fakes see: accounts, apps and their branches, Workshop items and collections, and faults, in
 * one JSON file that both fakes read anew on each use. Every method writes the file at once.
 */
export class FakeSteamWorld {
  private constructor(
    readonly dir: string,
    private readonly temporary: boolean,
  ) {}

  get statePath(): string {
    return join(this.dir, 'steam-world.json');
  }

  get logPath(): string {
    return join(this.dir, 'steamcmd-invocations.jsonl');
  }

  /** A world with the default accounts, apps and items (FAKE_STEAM_IDS), in `dir` or a new temporary folder. */
  static create(options: { dir?: string; state?: SteamWorldState } = {}): FakeSteamWorld {
    const temporary = options.dir === undefined;
    const dir = options.dir ? resolve(options.dir) : mkdtempSync(join(tmpdir(), 'garrison-fake-steam-'));
    mkdirSync(dir, { recursive: true });
    const world = new FakeSteamWorld(dir, temporary);
    writeState(world.statePath, options.state ?? defaultWorld());
    return world;
  }

  /** The environment the fakes need: add it to the environment of whatever runs `steamcmd`. */
  env(): Record<string, string> {
    // Named STEAMCMD_*: Garrison hands steamcmd those of its environment, and nothing else of a test's.
    return { STEAMCMD_FAKE_STATE: this.statePath, STEAMCMD_FAKE_LOG: this.logPath, STEAMCMD_FAKE_WATCH_PID: String(process.pid) };
  }

  read(): SteamWorldState {
    return readState(this.statePath);
  }

  /** Any change not covered by a method below. */
  edit(change: (state: SteamWorldState) => void): SteamWorldState {
    return updateState(this.statePath, change);
  }

  setAccount(username: string, account: SteamAccount): void {
    this.edit((s) => void (s.accounts[username] = account));
  }

  setApp(id: string, app: SteamApp): void {
    this.edit((s) => {
      s.apps[id] = app;
      s.change_number += 1;
    });
  }

  /** A new build on a branch (created when missing), updated now. */
  setBuild(app: string, branch: string, buildid: string, options: { password?: string; timeupdated?: number } = {}): void {
    this.edit((s) => {
      const target = s.apps[app];
      if (!target) throw new Error(`no app ${app} in the fake Steam`);
      const old = target.branches[branch];
      const timeupdated = options.timeupdated ?? Math.max(now(), (old?.timeupdated ?? 0) + 1);
      target.branches[branch] = { ...old, buildid, timeupdated, ...(options.password !== undefined && { password: options.password }) };
      s.change_number += 1;
    });
  }

  addItem(id: string, item: NewItem): void {
    if (!/^\d+$/.test(id)) throw new Error(`a Workshop id is digits, got ${JSON.stringify(id)}`);
    const files = item.files ?? { [`addons/${item.title.replace(/[^A-Za-z0-9]+/g, '_')}.pbo`]: `fake pbo ${item.title} build 1\n` };
    const built = workshopItem(
      { id, app: item.app, title: item.title, modName: item.modName, meta: item.meta, files },
      item.time_updated ?? now(),
    );
    if (item.visibility !== undefined) built.visibility = item.visibility;
    this.edit((s) => void (s.items[id] = built));
  }

  /**
   * A new version of the item upstream: `time_updated` moves forward (at least a second), its first .pbo gets
   * the next build (or `files` replace what they name), meta.cpp gets the new timestamp and title.
   */
  updateItem(id: string, changes: { title?: string; files?: Record<string, string>; time_updated?: number } = {}): number {
    let updated = 0;
    this.edit((s) => {
      const item = s.items[id];
      if (!item) throw new Error(`no Workshop item ${id} in the fake Steam`);
      updated = changes.time_updated ?? Math.max(now(), item.time_updated + 1);
      item.time_updated = updated;
      if (changes.title !== undefined) item.title = changes.title;
      if (changes.files) Object.assign(item.files, changes.files);
      else {
        const pbo = Object.keys(item.files).find((f) => f.toLowerCase().endsWith('.pbo')) ?? 'addons/content.pbo';
        const build = Number(/build (\d+)/.exec(item.files[pbo] ?? '')?.[1] ?? 0) + 1;
        item.files[pbo] = `${(item.files[pbo] ?? 'fake pbo\n').replace(/ build \d+\n?$/, '').trimEnd()} build ${build}\n`;
      }
      if ('meta.cpp' in item.files) item.files['meta.cpp'] = metaCpp(id, item.title, updated);
      item.file_size = byteSize(item.files);
    });
    return updated;
  }

  removeItem(id: string): void {
    this.edit((s) => void delete s.items[id]);
  }

  setCollection(id: string, items: string[]): void {
    this.edit((s) => void (s.collections[id] = [...items]));
  }

  setFault(fault: SteamFault): void {
    this.edit((s) => {
      if (fault.kind === 'rate_limit') s.faults.rate_limit = fault.times ?? 1;
      else if (fault.kind === 'app_state') (s.faults.apps ??= {})[fault.app] = { state: fault.state, times: fault.times };
      else {
        const item = s.items[fault.item];
        if (!item) throw new Error(`no Workshop item ${fault.item} in the fake Steam`);
        item.faults ??= {};
        if (fault.kind === 'item_timeouts') item.faults.timeouts = fault.count;
        else item.faults.fail = fault.fail ?? true;
      }
    });
  }

  clearFaults(): void {
    this.edit((s) => {
      s.faults = {};
      for (const item of Object.values(s.items)) delete item.faults;
    });
  }

  /** The pause between two progress lines of an update or a download. */
  setDelay(ms: number): void {
    this.edit((s) => void (s.delayMs = ms));
  }

  /** Every finished run of the fake steamcmd so far, oldest first. */
  invocations(): SteamInvocation[] {
    if (!existsSync(this.logPath)) return [];
    return readFileSync(this.logPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SteamInvocation);
  }

  /** Deletes the world's folder when `create` made it. */
  remove(): void {
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }
}
