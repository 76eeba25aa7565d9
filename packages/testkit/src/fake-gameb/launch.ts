import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFakeGameb } from '../install.js';
import { RawSourceConnection } from '../rcon-source/raw-client.js';
import { freePorts } from '../suite/ports.js';
import { startProcess, type TestProcess } from '../suite/processes.js';
import { waitFor } from '../suite/waiting.js';

export interface FakeGamebLaunch {
  /** An installed fake (`installFakeGameb`) to start; a new temporary one by default (removed by `stop`). */
  dir?: string;
  password?: string;
  map?: string;
  /** `maps/<name>.bsp` files to create first. */
  maps?: string[];
  maxPlayers?: number;
  /** Lines added to `cfg/server.cfg` after `hostname` and `rcon_password`. */
  cfgLines?: string[];
  env?: Record<string, string>;
}

export interface FakeGameb {
  dir: string;
  exePath: string;
  port: number;
  password: string;
  args: string[];
  process: TestProcess;
  /** A logged-in bare RCON connection (closed by `stop`). */
  connect(): Promise<RawSourceConnection>;
  /** Runs one command on a shared logged-in connection and gives its whole answer. */
  command(text: string): Promise<string>;
  /** Kills the process, closes the connections, removes a temporary install. */
  stop(): Promise<void>;
}

/**
 * Writes `cfg/server.cfg` and the maps, starts the fake gameb on a free port with the adapter's launch
 * line, and waits until RCON logs in. For tests of the fake and of what drives it.
 */
export async function launchFakeGameb(options: FakeGamebLaunch = {}): Promise<FakeGameb> {
  const temp = options.dir ? null : await mkdtemp(join(tmpdir(), 'garrison-fake-gameb-'));
  const { dir, executables } = await installFakeGameb(options.dir ?? temp!);
  const password = options.password ?? 'FakePass1';
  const map = options.map ?? 'de_test';
  for (const name of options.maps ?? [map]) await writeFile(join(dir, 'maps', `${name}.bsp`), 'VBSP');
  const cfg = ['// written by launchFakeGameb', 'hostname "Fake gameb"', `rcon_password "${password}"`, ...(options.cfgLines ?? [])];
  await writeFile(join(dir, 'cfg', 'server.cfg'), `${cfg.join('\n')}\n`);
  const port = await freePorts(1);
  const args = ['-console', '-port', String(port), '+ip', '0.0.0.0', '+maxplayers', String(options.maxPlayers ?? 16), '+map', map];
  args.push('+exec', 'server.cfg');
  const proc = startProcess(executables[0], args, { env: { ...process.env, ...options.env } });
  const opened: RawSourceConnection[] = [];
  const connect = async () => {
    const c = await waitFor(
      async () => {
        if (proc.child.exitCode !== null) throw new Error(`the fake exited (${proc.child.exitCode}): ${proc.stderr.join('')}`);
        return RawSourceConnection.open('127.0.0.1', port);
      },
      { timeoutMs: 30_000, intervalMs: 50, what: `the fake gameb's RCON on port ${port}` },
    );
    opened.push(c);
    if (!(await c.auth(password))) throw new Error('the fake gameb refused its own rcon_password');
    return c;
  };
  let shared: Promise<RawSourceConnection> | null = null;
  let nextId = 1000;
  const stop = async () => {
    await Promise.all(opened.map((c) => c.close()));
    await proc.kill();
    if (temp) await rm(temp, { recursive: true, force: true });
  };
  try {
    shared = connect();
    await shared;
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    dir,
    exePath: executables[0],
    port,
    password,
    args,
    process: proc,
    connect,
    command: async (text) => {
      const c = await (shared ??= connect());
      nextId += 2;
      return (await c.command(text, nextId)).body;
    },
    stop,
  };
}
