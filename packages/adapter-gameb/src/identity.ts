import { isIPv4 } from 'node:net';
import type { IdentityKind } from '@garrison/core';

/** `STEAM_X:Y:Z` (X the universe, 0 or 1 depending on the game's engine branch; the account id is Z*2+Y). */
const STEAM2 = /^STEAM_([0-5]):([01]):(\d{1,10})$/i;
/** `[U:1:N]` (SteamID3 of an individual account, N the account id); the brackets are optional in some tools. */
const STEAM3 = /^\[?U:1:(\d{1,10})\]?$/i;
const MAX_ACCOUNT_ID = 0xffff_ffff;

/** The account id a SteamID in either form names, or null when it is neither form. */
function accountIdOf(value: string): number | null {
  const text = value.trim();
  const two = STEAM2.exec(text);
  const id = two ? Number(two[3]) * 2 + Number(two[2]) : Number(STEAM3.exec(text)?.[1] ?? NaN);
  return Number.isSafeInteger(id) && id >= 0 && id <= MAX_ACCOUNT_ID ? id : null;
}

/**
 * A SteamID in the form the game's ban file and `banid` use, `STEAM_0:Y:Z`: `[U:1:2469]` and
 * `STEAM_1:1:1234` both become `STEAM_0:1:1234`, so that one player is one ban whatever form named him.
 * A value that is no SteamID is returned trimmed, as it is (the caller checks with `problem` first).
 */
export function normalizeSteamId(value: string): string {
  const id = accountIdOf(value);
  return id === null ? value.trim() : `STEAM_0:${id % 2}:${Math.floor(id / 2)}`;
}

/**
 * The SteamID in both universe forms, `STEAM_0:Y:Z` and `STEAM_1:Y:Z`. The game matches a `banid` by the
 * universe digit too, and prints (so expects) 0 or 1 depending on its engine branch; the older branches
 * cannot read `[U:1:N]` at all. A ban given in both forms holds on either.
 */
export function steamIdForms(value: string): string[] {
  const legacy = normalizeSteamId(value);
  return [legacy, legacy.replace(/^STEAM_0:/, 'STEAM_1:')];
}

export function isSteamId(value: string): boolean {
  return accountIdOf(value) !== null;
}

export const steamIdKind: IdentityKind = {
  kind: 'STEAMID',
  label: 'SteamID',
  example: 'STEAM_0:1:1234',
  // Either form, as written in upper case (the check takes any case).
  pattern: `${STEAM2.source}|${STEAM3.source}`,
  problem: (value) => (isSteamId(value) ? null : 'a SteamID, as STEAM_0:1:1234 or [U:1:2469]'),
  normalize: normalizeSteamId,
};

/** IPv4 only: the game's `addip` and banned_ip.cfg take a dotted IPv4 address, without port or mask. */
export const ipKind: IdentityKind = {
  kind: 'IP',
  label: 'IP address',
  example: '203.0.113.7',
  address: true,
  pattern: '^\\d{1,3}(?:\\.\\d{1,3}){3}$',
  problem: (value) => (isIPv4(value.trim()) ? null : 'an IPv4 address, as 203.0.113.7'),
  normalize: (value) => value.trim(),
};

/** SteamID first: what a ban takes by default. */
export const IDENTITIES: readonly IdentityKind[] = [steamIdKind, ipKind];
