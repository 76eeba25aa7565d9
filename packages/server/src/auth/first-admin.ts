import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const FILE = 'initial-admin-password';

/**
 * The first admin's generated password is kept in the data dir (0600) besides being logged: a first
 * start that fails after creating the admin (its port taken, say) must not lock the deployer out. The
 * file goes once that admin's password is changed.
 */
export const initialPasswordPath = (dataDir: string) => join(dataDir, FILE);

export async function keepInitialPassword(dataDir: string, username: string, password: string): Promise<string> {
  const path = initialPasswordPath(dataDir);
  await writeFile(path, `username: ${username}\npassword: ${password}\n`, { mode: 0o600 });
  return path;
}

/** The user whose generated password the file holds, or null when there is no such file. */
export async function initialPasswordOwner(dataDir: string): Promise<string | null> {
  const content = await readFile(initialPasswordPath(dataDir), 'utf8').catch(() => null);
  return content === null ? null : (/^username: (.*)$/m.exec(content)?.[1] ?? null);
}

/** Deletes the file when it holds `username`'s password, now changed. */
export async function forgetInitialPassword(dataDir: string, username: string): Promise<void> {
  if ((await initialPasswordOwner(dataDir))?.toLowerCase() === username.toLowerCase()) {
    await unlink(initialPasswordPath(dataDir)).catch(() => {});
  }
}
