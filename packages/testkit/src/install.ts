import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FAKE_EXECUTABLES = ['gameaserver_x64.exe', 'gameaserver.exe'] as const;
export const FAKE_GAMEB_EXECUTABLES = ['gamebserver', 'gamebserver.exe'] as const;

type Fake = 'fake-gamea' | 'fake-gameb' | 'fake-steamcmd';
const DESCRIPTIONS: Record<Fake, string> = {
  'fake-gamea': 'Fake gamea dedicated server',
  'fake-gameb': 'Fake gameb dedicated server',
  'fake-steamcmd': 'Fake steamcmd (its Steam is the JSON file STEAMCMD_FAKE_STATE names)',
};

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command that runs a fake (`fake-gamea`, `fake-gameb`, `fake-steamcmd`): this package's built entry, or, when the
 * testkit itself runs from TypeScript source (its own tests), the source entry through the same loader.
 */
function fakeCommand(fake: Fake): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./${fake}/main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const loader = fromSource ? ['--conditions=@garrison/source', '--import', import.meta.resolve('tsx')] : [];
  return [process.execPath, ...loader, entry];
}

async function writeLaunchers(dir: string, fake: Fake, names: readonly string[]): Promise<string[]> {
  const command = fakeCommand(fake).map(shellQuote).join(' ');
  const executables: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // The launcher passes its own path first, so the fake finds its folder (logs, missions) as the real one would.
    await writeFile(path, `#!/bin/sh\n# ${DESCRIPTIONS[fake]}, installed by garrison-testkit.\nexec ${command} "$0" "$@"\n`);
    await chmod(path, 0o755);
    executables.push(path);
  }
  return executables;
}

/**
 * Writes `DIR/gameaserver_x64.exe` and `DIR/gameaserver.exe` (executable launchers of the fake
 * dedicated server) and creates `DIR/mpmissions/`. Returns the executables' paths.
 */
export async function installFakeGamea(dir: string): Promise<{ dir: string; executables: string[] }> {
  const target = resolve(dir);
  await mkdir(join(target, 'mpmissions'), { recursive: true });
  return { dir: target, executables: await writeLaunchers(target, 'fake-gamea', FAKE_EXECUTABLES) };
}

/** Installs the fake game server into a new temporary folder; `remove()` deletes it. */
export async function installFakeGameaTemp(): Promise<{ dir: string; exePath: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-fake-gamea-'));
  const { executables } = await installFakeGamea(dir);
  return { dir, exePath: executables[0], remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes `DIR/gamebserver` and `DIR/gamebserver.exe` (launchers of the fake Source-engine server) and
 * creates its game folders `DIR/cfg/`, `DIR/maps/` and `DIR/logs/`. Returns the executables' paths.
 */
export async function installFakeGameb(dir: string): Promise<{ dir: string; executables: string[] }> {
  const target = resolve(dir);
  for (const sub of ['cfg', 'maps', 'logs']) await mkdir(join(target, sub), { recursive: true });
  return { dir: target, executables: await writeLaunchers(target, 'fake-gameb', FAKE_GAMEB_EXECUTABLES) };
}

/** Installs the fake gameb server into a new temporary folder; `remove()` deletes it. */
export async function installFakeGamebTemp(): Promise<{ dir: string; exePath: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-fake-gameb-'));
  const { executables } = await installFakeGameb(dir);
  return { dir, exePath: executables[0], remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes `DIR/steamcmd`, a launcher of the fake steamcmd, which keeps its logs in `DIR/logs/` and, without
 * `+force_install_dir`, downloads into `DIR/steamapps/`. Returns the executable's path.
 */
export async function installFakeSteamcmd(dir: string): Promise<{ dir: string; executables: string[] }> {
  const target = resolve(dir);
  await mkdir(target, { recursive: true });
  return { dir: target, executables: await writeLaunchers(target, 'fake-steamcmd', ['steamcmd']) };
}
