import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Repositories } from '../db/repositories/index.js';
import { TOKENS } from '../tokens.js';
import type { Store } from './store.js';

/**
 * `garrison admin rotate-jwt-secret`: the answer to a signing secret that got out. A new secret, and
 * every session and every user's token generation ended, so that nothing signed before (with either
 * secret) is honoured again. A secret given by GARRISON_JWT_SECRET cannot be written from here: the new
 * one is printed for the deployer to put there, on every instance.
 */
export async function rotateJwtSecret(store: Store): Promise<void> {
  const secret = randomBytes(48).toString('base64url');
  const fromEnvironment = store.settings.jwtSecret !== null;
  if (!fromEnvironment) {
    const path = join(store.settings.dataDir, 'jwt-secret');
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      await rename(temp, path);
    } finally {
      await rm(temp, { force: true });
    }
  }
  const repos = store.container.resolve<Repositories>(TOKENS.Repositories);
  const ended = await repos.sessions.endEveryone(new Date().toISOString());
  await repos.users.endAllTokens();
  console.log(`${ended} session${ended === 1 ? '' : 's'} ended; every user signs in again`);
  if (fromEnvironment) {
    console.log(`GARRISON_JWT_SECRET is set, so the new secret is not kept here. Put this value there on every instance, then restart them:\n${secret}`);
  } else {
    console.log(`new signing secret written to ${join(store.settings.dataDir, 'jwt-secret')}; restart the service (every instance) to sign with it`);
  }
}
