import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bindRepositories } from '../db/repositories/index.js';
import { inTransaction } from '../db/transaction.js';
import { loadOrCreateSecret } from '../auth/tokens.js';
import { Sealer } from '../auth/sealing.js';
import { TOTP_SEAL_PURPOSE } from '../auth/two-factor.js';
import { STEAM_SEAL_PURPOSE } from '../steam/account/service.js';
import type { Store } from './store.js';

/**
 * `garrison admin rotate-jwt-secret`: the answer to a signing secret that got out. A new secret, and
 * every session and every user's token generation ended, so that nothing signed before (with either
 * secret) is honoured again. A secret given by GARRISON_JWT_SECRET cannot be written from here: the new
 * one is printed for the deployer to put there, on every instance.
 */
export async function rotateJwtSecret(store: Store): Promise<void> {
  const previous = loadOrCreateSecret(store.settings);
  const secret = randomBytes(48).toString('base64url');
  const fromEnvironment = store.settings.jwtSecret !== null;
  // Two-factor secrets are sealed with a key derived from the signing secret: sealed anew, or every
  // enrolled user would be locked out by the rotation. Opened first, so that a secret that cannot be
  // opened stops the rotation before anything changed.
  const [before, after] = [new Sealer(previous, TOTP_SEAL_PURPOSE), new Sealer(secret, TOTP_SEAL_PURPOSE)];
  const anew = (sealed: string | null) => (sealed === null ? null : after.seal(before.open(sealed)));
  // The Steam account's password and pending Guard code likewise, with their own purpose's key.
  const [steamBefore, steamAfter] = [new Sealer(previous, STEAM_SEAL_PURPOSE), new Sealer(secret, STEAM_SEAL_PURPOSE)];
  const steamAnew = (sealed: string) => steamAfter.seal(steamBefore.open(sealed));
  let steamResealed = false;
  let ended = 0;
  let resealed: { id: number }[] = [];
  await inTransaction(store.db, async (trx) => {
    // Read in the transaction: an enrolment finished meanwhile is sealed anew too.
    const twoFactor = bindRepositories(trx).twoFactor;
    resealed = (await twoFactor.sealed()).map((row) => ({
      id: row.id,
      totp_secret: anew(row.totp_secret),
      totp_pending: anew(row.totp_pending),
    }));
    await twoFactor.reseal(resealed as { id: number; totp_secret: string | null; totp_pending: string | null }[], trx);
    const steam = await bindRepositories(trx).steamAccount.get(trx);
    if (steam) {
      const guard = steam.guard_code_sealed === null ? null : steamAnew(steam.guard_code_sealed);
      await bindRepositories(trx).steamAccount.reseal({ password_sealed: steamAnew(steam.password_sealed), guard_code_sealed: guard }, trx);
      steamResealed = true;
    }
    ended = await bindRepositories(trx).sessions.endEveryone(new Date().toISOString());
    await bindRepositories(trx).users.endAllTokens();
    // The new secret is in place before the transaction commits: a failed write leaves both as they were.
    if (!fromEnvironment) await writeSecret(join(store.settings.dataDir, 'jwt-secret'), secret);
  });
  const resealedNote = resealed.length
    ? `; the two-factor secrets of ${resealed.length} user${resealed.length === 1 ? '' : 's'} sealed with the new secret`
    : '';
  const steamNote = steamResealed ? '; the Steam account sealed with the new secret' : '';
  console.log(`${ended} session${ended === 1 ? '' : 's'} ended; every user signs in again${resealedNote}${steamNote}`);
  if (fromEnvironment) {
    console.log(
      'GARRISON_JWT_SECRET is set, so the new secret is not kept here. ' +
        `Put this value there on every instance, then restart them:\n${secret}`,
    );
  } else {
    console.log(
      `new signing secret written to ${join(store.settings.dataDir, 'jwt-secret')}; restart the service (every instance) to sign with it`,
    );
  }
}

async function writeSecret(path: string, secret: string): Promise<void> {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
