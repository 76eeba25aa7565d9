/**
 * SteamIDs as srcds takes them: `STEAM_X:Y:Z` (the legacy form; X is 0 or 1 depending on the game, Y the
 * low bit, Z the rest of the account number) and `[U:1:N]` (the Steam3 form, N = 2Z + Y). Both name
 * the same account. Like the engine, the fake keeps the universe digit X of a legacy ID and compares it:
 * `banid 0 STEAM_0:1:1234` does not ban the player an engine of universe 1 shows as `STEAM_1:1:1234`.
 * Which digit the engine prints is `GAMEB_FAKE_UNIVERSE` (0, as the older Source games, or 1).
 */
export interface SteamId {
  account: number;
  universe: number;
  /** `STEAM_X:Y:Z`. */
  text: string;
}

const MAX_ACCOUNT = 2 ** 32 - 1;

/** `engineUniverse` is the digit a `[U:1:N]` ID gets: the engine's own. */
export function parseSteamId(input: string, engineUniverse = 0): SteamId | null {
  const legacy = /^STEAM_([0-5]):([01]):(\d{1,10})$/i.exec(input);
  const steam3 = /^\[U:1:(\d{1,10})\]$/i.exec(input);
  let account: number;
  let universe = engineUniverse;
  if (legacy) {
    account = Number(legacy[3]) * 2 + Number(legacy[2]);
    universe = Number(legacy[1]);
  } else if (steam3) account = Number(steam3[1]);
  else return null;
  if (account > MAX_ACCOUNT) return null;
  return { account, universe, text: steamIdText(account, universe) };
}

export function steamIdText(account: number, universe = 0): string {
  return `STEAM_${universe}:${account % 2}:${Math.floor(account / 2)}`;
}

export function steam3Text(account: number): string {
  return `[U:1:${account}]`;
}
