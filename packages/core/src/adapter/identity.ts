/**
 * One kind of identity by which a game knows a player and a ban takes him: the first game's GUID and IP
 * address, a Source-engine game's SteamID and IP address. The adapter declares its kinds; the service,
 * the API and the console know none of them.
 */
export interface IdentityKind {
  /** As the API's `ban_type` names it, upper case: `GUID`, `IP`, `STEAMID`. */
  readonly kind: string;
  /** What a person calls it: `GUID`, `IP address`, `SteamID`. */
  readonly label: string;
  /** A value of this kind, for a form's placeholder and the docs. */
  readonly example: string;
  /** Whether a value of this kind is the address a player connects from (a ban of it bans the address). */
  readonly address?: boolean;
  /**
   * The shape of a value of this kind, as a regular expression's source compiled without flags
   * (`^[0-9a-fA-F]{32}$`): the console picks the kind of a value typed by it, the first that matches.
   * A hint only: `problem` decides.
   */
  readonly pattern?: string;
  /** Why a value is not one of this kind (`a 32-character hexadecimal GUID`), or null when it is. */
  problem(value: string): string | null;
  /** The value as stored and compared: a GUID in lower case, a SteamID in one of its forms. */
  normalize(value: string): string;
}

/** Who a player or a ban is, in one of the kinds the game declares. */
export interface PlayerIdentity {
  kind: string;
  value: string;
}
