/** The launch arguments the fake accepts: the adapter's, as the real server takes them. Anything else is refused. */
export interface LaunchOptions {
  port: number;
  config: string;
  cfg: string;
  profiles: string;
  name: string;
  bepath: string;
  world: string;
  limitFPS: number;
  mods: string[];
  serverMods: string[];
  autoInit: boolean;
  loadMissionToMemory: boolean;
  /** `-client`: a headless client, joining the server at `connect`:`port` with `password`. */
  client: { connect: string; password: string | null } | null;
}

const VALUE_ARGS = new Set([
  'port',
  'config',
  'cfg',
  'profiles',
  'name',
  'bepath',
  'world',
  'limitfps',
  'mod',
  'servermod',
  'maxmem',
  'cpucount',
  'exthreads',
  'bandwidthalg',
  'connect',
  'password',
]);
const SWITCHES = new Set(['autoinit', 'loadmissiontomemory', 'enableht', 'hugepages', 'filepatching', 'netlog', 'nosound', 'client']);
const REQUIRED = ['port', 'config', 'cfg', 'profiles', 'name', 'bepath'];
/** A headless client reads no server config: it joins a server. */
const CLIENT_REQUIRED = ['port', 'connect', 'profiles', 'name'];

export class LaunchError extends Error {}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new LaunchError(`-${name}= needs an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

/** Reads `-key=value` and `-switch` arguments, case-insensitively as the game does. */
export function parseLaunchArguments(argv: string[]): LaunchOptions {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (const arg of argv) {
    const match = /^-([A-Za-z]+)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new LaunchError(`unexpected argument ${JSON.stringify(arg)}`);
    const key = match[1].toLowerCase();
    if (match[2] !== undefined && VALUE_ARGS.has(key)) values.set(key, match[2]);
    else if (match[2] === undefined && SWITCHES.has(key)) switches.add(key);
    else throw new LaunchError(`unknown or malformed argument ${JSON.stringify(arg)}`);
  }
  const client = switches.has('client');
  if (!client && (values.has('connect') || values.has('password')))
    throw new LaunchError('-connect= and -password= are for a headless client (-client)');
  if (client && values.has('servermod')) throw new LaunchError('a headless client loads no server mods (-serverMod=)');
  const missing = (client ? CLIENT_REQUIRED : REQUIRED).filter((k) => !values.get(k));
  if (missing.length) throw new LaunchError(`missing ${missing.map((k) => `-${k}=`).join(', ')}`);
  const world = values.get('world') ?? 'empty';
  if (!/^[A-Za-z0-9_]+$/.test(world)) throw new LaunchError(`-world= must be a world name, got ${JSON.stringify(world)}`);
  const list = (key: string) => (values.get(key) ?? '').split(';').filter(Boolean);
  for (const mod of [...list('mod'), ...list('servermod')]) {
    if (!mod.startsWith('@') && !/^[a-z]+$/.test(mod)) throw new LaunchError(`mod folder ${JSON.stringify(mod)} does not start with @`);
  }
  return {
    port: integer('port', values.get('port')!, 1, 65535),
    config: values.get('config') ?? '',
    cfg: values.get('cfg') ?? '',
    profiles: values.get('profiles')!,
    name: values.get('name')!,
    bepath: values.get('bepath') ?? '',
    world,
    limitFPS: values.has('limitfps') ? integer('limitFPS', values.get('limitfps')!, 5, 1000) : 50,
    mods: list('mod'),
    serverMods: list('servermod'),
    autoInit: switches.has('autoinit'),
    loadMissionToMemory: switches.has('loadmissiontomemory'),
    client: client ? { connect: values.get('connect')!, password: values.get('password') ?? null } : null,
  };
}
