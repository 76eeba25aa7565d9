import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FAKE_EXECUTABLES = ['gameaserver_x64.exe', 'gameaserver.exe'] as const;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command that runs the fake: this package's built entry, or, when the testkit itself runs from
 * TypeScript source (its own tests), the source entry through the same loader.
 */
function fakeCommand(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./fake-gamea/main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  const loader = fromSource ? ['--conditions=@garrison/source', '--import', import.meta.resolve('tsx')] : [];
  return [process.execPath, ...loader, entry];
}

/**
 * Writes `DIR/gameaserver_x64.exe` and `DIR/gameaserver.exe` (executable launchers of the fake
 * dedicated server) and creates `DIR/mpmissions/`. Returns the executables' paths.
 */
export async function installFakeGamea(dir: string): Promise<{ dir: string; executables: string[] }> {
  const target = resolve(dir);
  await mkdir(join(target, 'mpmissions'), { recursive: true });
  const command = fakeCommand().map(shellQuote).join(' ');
  const executables: string[] = [];
  for (const name of FAKE_EXECUTABLES) {
    const path = join(target, name);
    // The launcher passes its own path first, so the fake finds its folder (logs, missions) as the real one would.
    await writeFile(path, `#!/bin/sh\n# Fake gamea dedicated server, installed by garrison-testkit.\nexec ${command} "$0" "$@"\n`);
    await chmod(path, 0o755);
    executables.push(path);
  }
  return { dir: target, executables };
}

/** Installs the fake game server into a new temporary folder; `remove()` deletes it. */
export async function installFakeGameaTemp(): Promise<{ dir: string; exePath: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'garrison-fake-gamea-'));
  const { executables } = await installFakeGamea(dir);
  return { dir, exePath: executables[0], remove: () => rm(dir, { recursive: true, force: true }) };
}
