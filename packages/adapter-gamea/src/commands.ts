import { DIFFICULTIES, DIFFICULTY_NAMES, parseMissionName } from './missions.js';

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

/**
 * What the audit trail keeps of a command: all of it, except the password that BattlEye's
 * `RConPassword` sets and the one the game's `#login` carries.
 */
export function redactCommand(command: string): string {
  return command.replace(/^(\s*(?:RConPassword|#login)\s+)\S.*$/i, '$1***');
}

/** What is wrong with a command the game would take wrongly, or null: `#mission` names a mission by the mission rule. */
export function commandProblem(command: string): string | null {
  const text = command.trim();
  if (!/^#mission(?:\s|$)/i.test(text)) return null;
  const [, name, difficulty, ...rest] = text.split(/\s+/);
  if (!name || rest.length) return 'usage: #mission <NAME.TERRAIN> [difficulty] (a mission name has no spaces)';
  try {
    parseMissionName(name);
  } catch (err) {
    return (err as Error).message;
  }
  if (difficulty !== undefined && !DIFFICULTIES.some((d) => d.toLowerCase() === difficulty.toLowerCase())) {
    return `${JSON.stringify(difficulty)} is no difficulty: ${DIFFICULTY_NAMES}`;
  }
  return null;
}
