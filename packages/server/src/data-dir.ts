import { chmod, mkdir, stat } from 'node:fs/promises';
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
