import { ApiError } from '@garrison/core';

/**
 * What SteamCMD's failure lines mean, as typed errors an admin can act on (docs/workshop.md, "Errors").
 * Steam's own reason is kept in the message, after what to do; every text here is already redacted.
 */

const GUARD = /steam ?guard|two-factor|auth ?code|account logon denied|has not been authenticated/i;
const RATE = /rate limit|too many/i;
const NETWORK = /no connection|timeout|timed out|service unavailable|try another cm|connection/i;
const SUBSCRIPTION = /no subscription|not (?:own|subscribed)|access denied/i;
const DISK = /disk|space/i;

const network = (what: string) => new ApiError('STEAM_NETWORK', `${what}: check the network and retry`);
const diskFull = (what: string) => new ApiError('STEAM_DISK_FULL', `${what}: free space and retry`);

export function guardRequired(reason: string): ApiError {
  return new ApiError(
    'STEAM_GUARD_REQUIRED',
    `Steam asks for a Steam Guard code for this account (${reason}): enter the current code from the Steam Guard mail or app and retry`,
  );
}

/** A failed login, by Steam's reason (`Invalid Password`, `Rate Limit Exceeded`, `Account Logon Denied`…). */
export function loginFailure(user: string | null, reason: string): ApiError {
  // Never the account's name: a job's error is read by viewers too.
  const who = user === null ? 'the login' : user === 'anonymous' ? 'the anonymous login' : 'the login of the Steam account';
  if (GUARD.test(reason)) return guardRequired(reason);
  if (RATE.test(reason)) {
    return new ApiError(
      'STEAM_RATE_LIMITED',
      `Steam refused ${who} for too many attempts (${reason}): wait before retrying, often 30 minutes or more`,
    );
  }
  if (NETWORK.test(reason)) return network(`SteamCMD could not reach Steam for ${who} (${reason})`);
  return new ApiError('STEAM_LOGIN_FAILED', `Steam refused ${who} (${reason}): check the Steam account's name and password`);
}

/** `Error! App '<id>' state is 0x<code> after update job.` */
export function appStateFailure(appId: string, state: string): ApiError {
  const code = state.toLowerCase();
  if (code === '202') {
    return diskFull(`SteamCMD ran out of disk space installing app ${appId} (state 0x202)`);
  }
  if (code === '402' || code === '602') {
    return network(`SteamCMD lost the connection to Steam's content servers installing app ${appId} (state 0x${code})`);
  }
  return new ApiError('STEAMCMD_FAILED', `SteamCMD could not install app ${appId} (state 0x${code}): read the job's log and retry`);
}

/** `ERROR! Failed to install app '<id>' (<reason>)` */
export function appInstallFailure(appId: string, reason: string): ApiError {
  if (/no subscription/i.test(reason)) {
    return new ApiError(
      'STEAM_NO_SUBSCRIPTION',
      `Steam will not give app ${appId} to this login (${reason}): log in with an account that owns it (anonymous login cannot fetch it)`,
    );
  }
  if (DISK.test(reason)) return diskFull(`SteamCMD could not write app ${appId} (${reason})`);
  if (/password|beta/i.test(reason)) return branchPasswordFailure(appId, reason);
  if (NETWORK.test(reason)) return network(`SteamCMD could not download app ${appId} (${reason})`);
  return new ApiError('STEAMCMD_FAILED', `SteamCMD could not install app ${appId} (${reason}): read the job's log and retry`);
}

/** `ERROR! Password check for AppId <id> returned error <reason>.`: the beta branch's password. */
export function branchPasswordFailure(appId: string, reason: string): ApiError {
  return new ApiError(
    'STEAM_BRANCH_PASSWORD',
    `Steam refused the branch password for app ${appId} (${reason}): send the branch's current password`,
  );
}

/** `ERROR! Download item <id> failed (<reason>).` Timeout is the one worth another run. */
export function itemFailure(itemId: string, reason: string): ApiError {
  if (/timeout/i.test(reason)) {
    return new ApiError('STEAM_ITEM_TIMEOUT', `Workshop item ${itemId} timed out on every try (${reason}): retry later`);
  }
  if (/no subscription/i.test(reason)) {
    return new ApiError(
      'STEAM_NO_SUBSCRIPTION',
      `Steam will not give Workshop item ${itemId} to this login (${reason}): the account must own the game`,
    );
  }
  if (DISK.test(reason)) return diskFull(`SteamCMD could not write Workshop item ${itemId} (${reason})`);
  const hint = SUBSCRIPTION.test(reason)
    ? 'the item may be private or removed, or the account may not own the game'
    : 'check the item on the Workshop';
  return new ApiError('STEAM_ITEM_FAILED', `Workshop item ${itemId} failed to download (${reason}): ${hint}`);
}

/** Whether an item's failure is worth another run (Steam's big items often time out, then succeed). */
export const isRetryable = (error: ApiError): boolean => error.code === 'STEAM_ITEM_TIMEOUT';
