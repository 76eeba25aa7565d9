import { ApiError, type BanEntry, type PlayerIdentity, type RunCommand } from '@garrison/core';
import { banMinutes } from './bans.js';
import { ipKind, steamIdForms, steamIdKind } from './identity.js';
import { mapNameProblem } from './maps.js';
import { parseStatus } from './players.js';

/**
 * The commands a gameb server answers over RCON, as templates for a command line to offer. `<x>` is
 * required, `[x]` optional. `rcon_password` is left out: a password typed there would end up in the audit trail.
 * `writeid` and `writeip` are left out too: the game would write its whole list over the ban files that
 * Garrison shares with it line by line (dropping the lines it does not hold, comments included).
 */
export const KNOWN_COMMANDS: readonly string[] = [
  'status',
  'changelevel <map>',
  'kickid <userid> [reason]',
  'banid <minutes> <steamid>',
  'removeid <steamid>',
  'addip <minutes> <ip>',
  'removeip <ip>',
  'listid',
  'listip',
  'say <message>',
  'maps <filter>',
  'mp_timelimit <minutes>',
  'sv_password <password>',
  'quit',
];

/**
 * Text that goes into a command composed for the admin (a kick reason, a message): on one line, and
 * without `;` or `"`, with which the game would end the command there and read the rest as another.
 */
function flatText(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/;/g, ',')
    .replace(/"/g, "'")
    .trim();
}

/**
 * The audit trail's form of a command: everything after the first `rcon_password` or `sv_password` is
 * masked, wherever it stands — quoted (`"rcon_password" x`), in an alias, after `;` or a line break — as
 * the game's own reading of quotes and statements would find it there.
 */
export function redactCommand(command: string): string {
  const found = /(rcon|sv)_password"?/i.exec(command);
  return found ? `${command.slice(0, found.index + found[0].length)} ***` : command;
}

/**
 * What is wrong with a command the game would take wrongly, or null: `changelevel`/`map` of a name that is no
 * map name, or a new `rcon_password`.
 */
export function commandProblem(command: string): string | null {
  // Set over RCON, the password would no longer be the one Garrison logs in with, until a restart.
  if (/rcon_password/i.test(command)) return 'rcon_password is set in the server config, where Garrison logs in with it';
  const words = command.trim().split(/\s+/);
  if (!/^(?:changelevel|map)$/i.test(words[0] ?? '')) return null;
  if (words.length !== 2) return `usage: ${words[0]} <map> (a map name has no spaces)`;
  return mapNameProblem(words[1]);
}

/**
 * The identity as the game's commands take it: an address, or a SteamID in each universe form
 * (`steamIdForms`); a value that is not one (which could carry a second command) is refused.
 */
function identityArguments(id: PlayerIdentity): { ip: boolean; values: string[] } {
  const ip = id.kind.toUpperCase() === 'IP';
  const kind = ip ? ipKind : steamIdKind;
  const problem = kind.problem(id.value);
  if (problem) throw new ApiError('VALIDATION_ERROR', `${JSON.stringify(id.value)} is not ${problem}`);
  return ip ? { ip, values: [kind.normalize(id.value)] } : { ip, values: steamIdForms(id.value) };
}

/** The ban the game keeps of several of one identity (it holds one per identity): a permanent one, else the longest. */
function strongest(bans: readonly BanEntry[]): BanEntry | null {
  let best: BanEntry | null = null;
  for (const ban of bans) {
    if (!ban.expires_at) return ban;
    if (!best || (best.expires_at && ban.expires_at > best.expires_at)) best = ban;
  }
  return best;
}

async function holdBan(run: RunCommand, ban: BanEntry): Promise<void> {
  const { ip, values } = identityArguments(ban.id);
  for (const value of values) await run(`${ip ? 'addip' : 'banid'} ${banMinutes(ban)} ${value}`);
}

const slotOf = (slotId: string) => {
  if (!/^\d{1,9}$/.test(slotId)) throw new ApiError('VALIDATION_ERROR', `a player's userid is a number, not ${JSON.stringify(slotId)}`);
  return slotId;
};

/** The remote-admin operations in the game's commands (the service composes none itself). */
export const operations = {
  async listPlayers(run: RunCommand) {
    return parseStatus(await run('status'));
  },
  async kick(run: RunCommand, slotId: string, reason: string) {
    const why = flatText(reason);
    await run(`kickid ${slotOf(slotId)}${why ? ` ${why}` : ''}`);
  },
  async say(run: RunCommand, message: string) {
    await run(`say ${flatText(message)}`);
  },
  /**
   * Bans in the game's memory what the service has already written to the ban file. No `writeid` or
   * `writeip`: the service owns the file's lines, and the game would write the whole file over. The game
   * holds one ban per identity (a second `banid` replaces the first), so it gets the strongest the file holds.
   */
  async ban(run: RunCommand, ban: BanEntry, held: readonly BanEntry[] = []) {
    await holdBan(run, strongest([ban, ...held])!);
  },
  /** Lifts the ban in the game's memory, or, while the file still holds another ban of the identity, holds the strongest of those. */
  async unban(run: RunCommand, id: PlayerIdentity, held: readonly BanEntry[] = []) {
    const remaining = strongest(held);
    if (remaining) return holdBan(run, { ...remaining, id });
    const { ip, values } = identityArguments(id);
    for (const value of values) await run(`${ip ? 'removeip' : 'removeid'} ${value}`);
  },
  async shutdown(run: RunCommand) {
    await run('quit');
  },
  /** A map has no options (the rotation's normalize refuses any): `changelevel <map>`. */
  async playMission(run: RunCommand, name: string, _options: Record<string, string>) {
    const problem = mapNameProblem(name);
    if (problem) throw new ApiError('ADAPTER_ERROR', problem);
    await run(`changelevel ${name}`);
  },
};
