/**
 * SteamIDs as srcds takes them: `STEAM_X:Y:Z` (the legacy form; X is 0 or 1 depending on the game, Y the
 * low bit, Z the rest of the account number) and `[U:1:N]` (the Steam3 form, N = 2Z + Y). Both name
 * the same account; the fake keeps the account number and shows the `STEAM_0` form, as the `status` of
 * the older Source games does.
 */
export interface SteamId {
  account: number;
  /** `STEAM_0:Y:Z`. */
  text: string;
}

const MAX_ACCOUNT = 2 ** 32 - 1;

export function parseSteamId(input: string): SteamId | null {
  const legacy = /^STEAM_[0-5]:([01]):(\d{1,10})$/i.exec(input);
  const steam3 = /^\[U:1:(\d{1,10})\]$/i.exec(input);
  let account: number;
  if (legacy) account = Number(legacy[2]) * 2 + Number(legacy[1]);
  else if (steam3) account = Number(steam3[1]);
  else return null;
  if (account > MAX_ACCOUNT) return null;
  return { account, text: steamIdText(account) };
}

export function steamIdText(account: number): string {
  return `STEAM_0:${account % 2}:${Math.floor(account / 2)}`;
}

export function steam3Text(account: number): string {
  return `[U:1:${account}]`;
}
