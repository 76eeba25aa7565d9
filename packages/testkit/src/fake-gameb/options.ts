import { isIPv4 } from 'node:net';

/**
 * The launch line the fake accepts, the adapter's: `-console -port <port> +ip <address> +maxplayers <n>
 * +map <map> +exec <file>.cfg`, in any order as srcds takes them. Anything else is refused.
 */
export interface LaunchOptions {
  port: number;
  ip: string;
  maxPlayers: number;
  map: string;
  exec: string;
}

export class LaunchError extends Error {}

const VALUES = new Set(['-port', '+ip', '+maxplayers', '+map', '+exec']);
const REQUIRED = ['-console', '-port', '+ip', '+maxplayers', '+map', '+exec'];

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new LaunchError(`${name} needs an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function parseLaunchArguments(argv: string[]): LaunchOptions {
  const values = new Map<string, string>();
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const key = arg.toLowerCase();
    if (seen.has(key)) throw new LaunchError(`${arg} given twice`);
    if (key === '-console') {
      seen.add(key);
    } else if (VALUES.has(key)) {
      const value = argv[i + 1];
      if (value === undefined || /^[-+][a-z]/i.test(value)) throw new LaunchError(`${arg} needs a value`);
      values.set(key, value);
      seen.add(key);
      i += 1;
    } else {
      throw new LaunchError(`unknown argument ${JSON.stringify(arg)}; expected ${REQUIRED.join(' ')}`);
    }
  }
  const missing = REQUIRED.filter((k) => !seen.has(k));
  if (missing.length) throw new LaunchError(`missing ${missing.join(', ')}`);
  const ip = values.get('+ip')!;
  if (!isIPv4(ip)) throw new LaunchError(`+ip needs an IPv4 address, got ${JSON.stringify(ip)}`);
  const map = values.get('+map')!;
  if (!/^[A-Za-z0-9_.-]+$/.test(map) || map.startsWith('.')) throw new LaunchError(`+map needs a map name, got ${JSON.stringify(map)}`);
  const exec = values.get('+exec')!;
  if (!/^[A-Za-z0-9_.-]+\.cfg$/.test(exec)) throw new LaunchError(`+exec needs a .cfg file name, got ${JSON.stringify(exec)}`);
  return {
    port: integer('-port', values.get('-port')!, 1, 65535),
    ip,
    maxPlayers: integer('+maxplayers', values.get('+maxplayers')!, 1, 255),
    map,
    exec,
  };
}
