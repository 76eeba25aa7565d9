import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { verifyPassword } from './passwords.js';
import { ifMissing } from '@garrison/core';

const FILE = 'initial-admin-password';

/**
 * The first admin's generated password is kept in the data dir (0600) besides being logged: a first
 * start that fails after creating the admin (its port taken, say) must not lock the deployer out. The
 * file holds the password alone (a script reads it with `cat`; the username is in the log line), and
 * goes once the password it holds no longer signs that admin in.
 */
export const initialPasswordPath = (dataDir: string) => join(dataDir, FILE);

export async function keepInitialPassword(dataDir: string, password: string): Promise<string> {
  const path = initialPasswordPath(dataDir);
  await writeFile(path, `${password}\n`, { mode: 0o600 });
  return path;
}

/** The kept password, or null when there is no such file. */
async function keptPassword(dataDir: string): Promise<string | null> {
  const content = await readFile(initialPasswordPath(dataDir), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  // Files written before the password stood alone: `username: …` and `password: …` lines.
  return content === null ? null : (/^password: (.*)$/m.exec(content)?.[1] ?? content.trim());
}

/** Whether the kept password signs in the user of this password hash. */
export async function holdsInitialPassword(dataDir: string, passwordHash: string): Promise<boolean> {
  const kept = await keptPassword(dataDir);
  return kept !== null && (await verifyPassword(kept, passwordHash));
}

/** Deletes the file when it holds the password of the hash a user had before their change. */
export async function forgetInitialPassword(dataDir: string, hashBefore: string): Promise<void> {
  if (await holdsInitialPassword(dataDir, hashBefore)) await unlink(initialPasswordPath(dataDir)).catch(ifMissing(undefined));
}

/** Told once the service is reachable: the first admin's generated password, or the file that still keeps it. */
export function tellFirstAdmin(
  logger: Logger,
  admin: { username: string; generatedPassword: string | null; passwordFile: string | null },
): void {
  if (admin.generatedPassword) {
    // Deliberately outside the redacted fields.
    logger.warn(
      `created the first admin user "${admin.username}" with generated password: ${admin.generatedPassword} (also ` +
        `in ${admin.passwordFile} until it is changed)`,
    );
  } else if (admin.passwordFile) {
    logger.warn(`the generated password of the first admin "${admin.username}" is in ${admin.passwordFile} until it is changed`);
  }
}
