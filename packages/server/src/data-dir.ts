import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';

/**
 * Creates the data dir 0700, or tightens an existing one to it: it holds the database (game servers'
 * passwords), the token signing secret and the servers' config files.
 */
export async function prepareDataDir(dir: string, logger: Logger): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { mode, uid } = await stat(dir);
  if ((mode & 0o077) === 0 || (process.getuid && uid !== process.getuid())) return;
  await chmod(dir, 0o700);
  logger.warn({ dataDir: dir, was: (mode & 0o777).toString(8) }, 'the data dir was readable by others; made it 0700');
}

/**
 * A value made once and kept in a file of the data dir (mode 0600), so that it survives restarts; when
 * another process on the same data dir makes it at the same moment, both end up with the one written first.
 */
export function keptInDataDir(dataDir: string, file: string, make: () => string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  try {
    writeFileSync(path, value + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw err;
  }
  return value;
}

/** This instance's id: the setting, or one generated once into `<data dir>/node-id`. */
export function nodeIdOf(settings: { nodeId: string | null; dataDir: string }): string {
  return settings.nodeId ?? keptInDataDir(settings.dataDir, 'node-id', () => `node-${randomBytes(6).toString('hex')}`);
}
