/**
 * The commands a gamea server answers over RCon, as templates for a command line to offer: the game's
 * own (`#…`, from the spec) and BattlEye's (reference §2.1). `<x>` is required, `[x]` optional.
 * `RConPassword` is left out: a password typed there would end up in the audit trail.
 */
export const KNOWN_COMMANDS: readonly string[] = [
  '#restart',
  '#reassign',
  '#missions',
  '#lock',
  '#unlock',
  '#mission <NAME.TERRAIN> [difficulty]',
  '#shutdown',
  '#monitor <N>',
  'say -1 <MESSAGE>',
  'players',
  'admins',
  'bans',
  'missions',
  'kick <player #> [reason]',
  'ban <player #> [minutes] [reason]',
  'addBan <GUID|IP> [minutes] [reason]',
  'removeBan <ban #>',
  'loadBans',
  'writeBans',
  'MaxPing <ping>',
];
