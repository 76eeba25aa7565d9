import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from '@node-steam/vdf';
import { expectOnly, ifUnreadable } from '@garrison/core';
import { SteamOutputParser } from './output.js';

/**
 * What Steam says of an installed app (its `steamapps/appmanifest_<app>.acf`) and of the builds it
 * offers (`+app_info_print`), both in Valve's KeyValues text. Read tolerantly: a file that is missing,
 * too big or malformed gives null, and nothing of its content reaches an error.
 */

export interface AppManifest {
  appId: string;
  buildId: string;
  /** The branch installed (`public` unless a beta was chosen). */
  branch: string;
  /** When Steam last updated it, ISO 8601; null when the manifest does not say. */
  lastUpdated: string | null;
}

interface AppBranch {
  buildid: string;
  /** Seconds since the epoch; null when Steam does not say. */
  timeupdated: number | null;
  pwdrequired: boolean;
}

export interface AppInfo {
  branches: Record<string, AppBranch>;
}

/** A manifest is a few KB; anything far bigger is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

type Node = Record<string, unknown>;

/**
 * The parser builds plain objects by key, so a key such as `__proto__` or `constructor` would write into
 * a prototype shared by the whole service: a text naming one is refused whole.
 */
const PROTOTYPE_KEY = /(?:^\s*|")(?:__proto__|constructor|prototype)(?:"|\s|$)/m;

function parseVdf(text: string): Node | null {
  if (PROTOTYPE_KEY.test(text)) return null;
  try {
    const parsed: unknown = parse(text);
    return isNode(parsed) ? parsed : null;
  } catch (err) {
    expectOnly(err, SyntaxError, TypeError); // malformed: the parser's message names a line, never the content
    return null;
  }
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A member by name, whatever its case (Steam writes `LastUpdated`, `buildid`, `BetaKey`…). */
function member(node: unknown, name: string): unknown {
  if (!isNode(node)) return undefined;
  const key = Object.keys(node).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : node[key];
}

/** A scalar as text (the parser turns numeric strings into numbers); undefined for a missing or nested one. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The manifest's text read: null when it is not an app manifest with a build id. */
export function parseAppManifest(source: string): AppManifest | null {
  const root = parseVdf(source);
  const state = member(root, 'AppState');
  const appId = text(member(state, 'appid'));
  const buildId = text(member(state, 'buildid'));
  if (appId === undefined || buildId === undefined) return null;
  // MountedConfig is what is on disk; UserConfig what was asked for (the same once an update went through).
  const betaKey = (config: string) => text(member(member(state, config), 'BetaKey'));
  const branch = betaKey('MountedConfig') || betaKey('UserConfig') || 'public';
  const seconds = Number(text(member(state, 'LastUpdated')));
  const lastUpdated = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
  return { appId, buildId, branch, lastUpdated };
}

/** `<installDir>/steamapps/appmanifest_<appId>.acf`, read; null when missing, unreadable, too big or malformed. */
export async function readAppManifest(installDir: string, appId: string): Promise<AppManifest | null> {
  if (!/^[0-9]{1,20}$/.test(appId)) return null;
  const path = join(installDir, 'steamapps', `appmanifest_${appId}.acf`);
  const size = await stat(path).then((s) => (s.isFile() ? s.size : null), ifUnreadable(null));
  if (size === null || size > MAX_MANIFEST_BYTES) return null;
  const source = await readFile(path, 'utf8').catch(ifUnreadable(null));
  const manifest = source === null ? null : parseAppManifest(source);
  return manifest?.appId === appId ? manifest : null;
}

/**
 * The branches in `+app_info_print`'s output: the VDF after the `AppID : <id>` line (or that VDF alone),
 * under `<id>` → `depots` → `branches`. Null when there is none, or it does not parse.
 */
export function parseAppInfo(output: string): AppInfo | null {
  const root = parseVdf(appInfoBlock(output));
  if (!root) return null;
  const app = Object.values(root).find(isNode);
  const branches = member(member(app, 'depots'), 'branches');
  if (!isNode(branches)) return null;
  const result: Record<string, AppBranch> = {};
  for (const [name, branch] of Object.entries(branches)) {
    const buildid = text(member(branch, 'buildid'));
    if (buildid === undefined) continue;
    const updated = Number(text(member(branch, 'timeupdated')));
    result[name] = {
      buildid,
      timeupdated: Number.isFinite(updated) && updated > 0 ? updated : null,
      pwdrequired: [1, '1', true].includes(member(branch, 'pwdrequired') as never),
    };
  }
  return { branches: result };
}

/** The VDF block of SteamCMD's output (the lines around it are SteamCMD's own), or the text itself when it is the block alone. */
function appInfoBlock(output: string): string {
  if (!/^AppID\s*:/m.test(output)) return output;
  const parser = new SteamOutputParser();
  for (const line of output.split(/\r?\n/)) {
    const block = parser.line(line).find((e) => e.type === 'app_info');
    if (block) return block.text;
  }
  return '';
}
