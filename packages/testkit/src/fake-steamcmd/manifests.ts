import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, stringify } from '@node-steam/vdf';

/**
 * The VDF files steamcmd leaves beside what it installed: `steamapps/appmanifest_<app>.acf` (the installed
 * build and branch) and `steamapps/workshop/appworkshop_<app>.acf` (the downloaded Workshop items).
 */

export interface InstalledApp {
  appid: string;
  name: string;
  installdir: string;
  buildid: string;
  /** The branch; `public` is written as no betakey, as steamcmd does. */
  branch: string;
  sizeOnDisk: number;
}

function writeVdf(path: string, value: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, stringify(value));
}

export function writeAppManifest(path: string, app: InstalledApp): void {
  const beta = app.branch === 'public' ? {} : { betakey: app.branch };
  writeVdf(path, {
    AppState: {
      appid: app.appid,
      universe: '1',
      name: app.name,
      StateFlags: '4',
      installdir: app.installdir,
      LastUpdated: String(Math.floor(Date.now() / 1000)),
      SizeOnDisk: String(app.sizeOnDisk),
      StagingSize: '0',
      buildid: app.buildid,
      LastOwner: '0',
      BytesToDownload: String(app.sizeOnDisk),
      BytesDownloaded: String(app.sizeOnDisk),
      AutoUpdateBehavior: '0',
      AllowOtherDownloadsWhileRunning: '0',
      ScheduledAutoUpdate: '0',
      UserConfig: { language: 'english', ...beta },
      MountedConfig: { language: 'english', ...beta },
    },
  });
}

/** The build and branch an earlier install left, or null. */
export function readAppManifest(path: string): { buildid: string; branch: string } | null {
  if (!existsSync(path)) return null;
  const state = (parse(readFileSync(path, 'utf8')) as { AppState?: Record<string, unknown> }).AppState;
  if (!state) return null;
  const config = state.UserConfig as { betakey?: unknown } | undefined;
  return { buildid: String(state.buildid), branch: config?.betakey ? String(config.betakey) : 'public' };
}

export interface DownloadedItem {
  id: string;
  size: number;
  timeupdated: number;
}

/** Adds (or replaces) one item in `appworkshop_<app>.acf`, keeping the others the file already lists. */
export function recordWorkshopItem(path: string, app: string, item: DownloadedItem): void {
  type Entries = Record<string, Record<string, unknown>>;
  let installed: Entries = {};
  let details: Entries = {};
  if (existsSync(path)) {
    const old = (parse(readFileSync(path, 'utf8')) as { AppWorkshop?: Record<string, unknown> }).AppWorkshop;
    installed = (old?.WorkshopItemsInstalled as Entries | undefined) ?? {};
    details = (old?.WorkshopItemDetails as Entries | undefined) ?? {};
  }
  const now = String(Math.floor(Date.now() / 1000));
  // A manifest id below 2^53: the VDF reader turns digit strings into numbers, and a bigger one would change.
  const manifest = String(item.timeupdated * 1000 + (item.size % 1000));
  installed[item.id] = { size: String(item.size), timeupdated: String(item.timeupdated), manifest };
  details[item.id] = { manifest, timeupdated: String(item.timeupdated), timetouched: now, subscribedby: '0' };
  const size = Object.values(installed).reduce((sum, entry) => sum + Number(entry.size), 0);
  writeVdf(path, {
    AppWorkshop: {
      appid: app,
      SizeOnDisk: String(size),
      NeedsUpdate: '0',
      NeedsDownload: '0',
      TimeLastUpdated: now,
      TimeLastAppRan: '0',
      LastBuildID: '0',
      WorkshopItemsInstalled: installed,
      WorkshopItemDetails: details,
    },
  });
}
