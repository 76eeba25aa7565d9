import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCfg, type CfgClass } from './config-syntax.js';
import { LaunchError, type LaunchOptions } from './options.js';

export interface GameConfig {
  server: CfgClass;
  basic: CfgClass;
  profile: CfgClass;
  battlEye: { password: string | null; port: number | null; maxPing: number | null };
}

function readCfg(label: string, path: string): CfgClass {
  if (!existsSync(path)) throw new LaunchError(`${label} not found: ${path}`);
  try {
    return parseCfg(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new LaunchError(`${label} ${path} cannot be parsed: ${(err as Error).message}`);
  }
}

/** BattlEye's `Key value` lines; keys are case-insensitive, `//` and `#` lines are comments. */
function readBattlEye(bepath: string): GameConfig['battlEye'] {
  const file = ['BEServer_x64.cfg', 'BEServer.cfg', 'beserver_x64.cfg', 'beserver.cfg'].map((f) => join(bepath, f)).find(existsSync);
  if (!file) throw new LaunchError(`no BattlEye config (BEServer_x64.cfg) in ${bepath}`);
  const out: GameConfig['battlEye'] = { password: null, port: null, maxPing: null };
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('//') || line.startsWith('#') || line.startsWith(';')) continue;
    const [key, value, ...extra] = line.split(/\s+/);
    if (!value || extra.length) throw new LaunchError(`${file}: cannot read line ${JSON.stringify(line)}`);
    const k = key.toLowerCase();
    if (k === 'rconpassword') out.password = value;
    else if (k === 'rconport' || k === 'maxping') {
      const n = Number(value);
      if (!Number.isInteger(n)) throw new LaunchError(`${file}: ${key} must be an integer, got ${value}`);
      if (k === 'rconport') out.port = n;
      else out.maxPing = n;
    }
  }
  if (out.password && !out.port) throw new LaunchError(`${file}: RConPassword given without RConPort`);
  return out;
}

/** Every file the launch arguments point at, read as the game would; any missing or broken one stops the start. */
export function readGameConfig(options: LaunchOptions): GameConfig {
  return {
    server: readCfg('server config (-config=)', options.config),
    basic: readCfg('basic config (-cfg=)', options.cfg),
    profile: readCfg('profile', join(options.profiles, 'Users', options.name, `${options.name}.GameaProfile`)),
    battlEye: readBattlEye(options.bepath),
  };
}
