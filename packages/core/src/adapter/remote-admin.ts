import type { BanEntry } from './bans.js';
import type { ConfigValues, ServerContext } from './contract.js';
import type { PlayerIdentity } from './identity.js';

export interface LivePlayer {
  slot_id: string;
  name: string;
  ping: number;
  /** The identity the game reported (what a ban takes), null until it has. */
  id: PlayerIdentity | null;
  /** The address the player connects from, without the port; null or left out when the game does not say. */
  ip?: string | null;
}

export interface RemoteAdminTarget {
  host: string;
  port: number;
  password: string;
}

export interface RemoteAdminSession {
  /** Runs a command and resolves with its whole answer; rejects after the session's time-out, never hangs. */
  command(text: string): Promise<string>;
  /** Server messages pushed by the game (player joins, chat…). Returns an unsubscribe function. */
  onMessage(listener: (message: string) => void): () => void;
  close(): Promise<void>;
}

/** Runs one command over the server's remote-admin session (queued, audited by the service) and gives its answer. */
export type RunCommand = (text: string) => Promise<string>;

/** The operations a remote admin offers, as `GET /games/{game}` lists them. */
export const REMOTE_ADMIN_OPERATIONS = ['players', 'kick', 'ban', 'unban', 'say', 'command'] as const;
export type RemoteAdminOperation = (typeof REMOTE_ADMIN_OPERATIONS)[number];

/**
 * The game's remote admin: the adapter speaks the protocol (`connect`) and composes every command; the
 * service never sends a game's command text itself, it calls these operations with a `run` that sends one.
 */
export interface RemoteAdmin {
  /**
   * Where the game takes remote admin: on a port of its own, the server's `rcon_port` (the default), or on
   * its game port, when the server's `rcon_port` is its `game_port`.
   */
  readonly port?: 'own' | 'game';
  connect(target: RemoteAdminTarget): Promise<RemoteAdminSession>;
  /** Where the remote-admin password and port live in the config. */
  target(config: ConfigValues, ctx: ServerContext): RemoteAdminTarget | null;
  /** The players on now. */
  listPlayers(run: RunCommand): Promise<LivePlayer[]>;
  /** Kicks the player in a slot. */
  kick?(run: RunCommand, slotId: string, reason: string): Promise<void>;
  /** Shows a message to every player. */
  say?(run: RunCommand, message: string): Promise<void>;
  /**
   * Makes the running game hold a ban its ban file now has (the service has written the file): reload the
   * file, or ban the identity in the game's memory. `held` is every ban of that identity the file now
   * holds, this one included: a game that keeps one ban per identity keeps the strongest of them.
   */
  ban?(run: RunCommand, ban: BanEntry, held: readonly BanEntry[]): Promise<void>;
  /**
   * Makes the running game drop a ban its ban file no longer has. `held` is the bans of that identity the
   * file still holds (other lines): a game that keeps one ban per identity goes on holding the strongest.
   */
  unban?(run: RunCommand, id: PlayerIdentity, held: readonly BanEntry[]): Promise<void>;
  /**
   * Makes the running game read its ban file again, whole: for a game that does, a change of several bans
   * is one reload instead of a `ban`/`unban` each.
   */
  reloadBans?(run: RunCommand): Promise<void>;
  /** Asks the game to shut down cleanly; without it a stop sends SIGTERM. */
  shutdown?(run: RunCommand): Promise<void>;
  /** Makes the game play a mission of its folder now (a schedule's `set_mission`), with rotation options. */
  playMission?(run: RunCommand, name: string, options: Record<string, string>): Promise<void>;
  /** The game's commands, as templates (`#mission <NAME.TERRAIN> [difficulty]`), offered by command lines. */
  readonly knownCommands?: readonly string[];
  /** What is wrong with a command an admin typed, that the game would take wrongly (`#mission` of a bad name), or null. */
  commandProblem?(command: string): string | null;
  /**
   * The command as the audit trail keeps it: the game's secrets in it (a password it sets) replaced by
   * `***`, everything else as typed. Without it, the words after one containing "pass" are masked.
   */
  redactCommand?(command: string): string;
  /** Reads a server message about a player joining or leaving, so that a short visit between two polls is seen. */
  parsePlayerEvent?(message: string): PlayerEvent | null;
}

export type PlayerEvent =
  | { kind: 'joined'; slot_id: string; name: string }
  | { kind: 'identified'; slot_id: string; name: string; id: PlayerIdentity }
  | { kind: 'left'; slot_id: string; name: string };

/** The operations this remote admin offers (a raw command always). */
export function remoteAdminOperations(remote: RemoteAdmin): RemoteAdminOperation[] {
  return REMOTE_ADMIN_OPERATIONS.filter((op) => op === 'players' || op === 'command' || typeof remote[op] === 'function');
}
