import type { ServerContext } from './contract.js';
import type { PlayerIdentity } from './identity.js';

export interface BanEntry {
  /** Who is banned, in one of the kinds the adapter declares. */
  id: PlayerIdentity;
  reason: string;
  /** Null when permanent. */
  expires_at: Date | null;
}

/** One ban as a line of the game's ban file reads. */
export interface BanFileEntry extends BanEntry {
  /**
   * What identifies the entry when another writer (the game, a tool) writes the same ban again in its own
   * spacing: equal keys are the same ban. An expiry written relative to reading is part of the key as
   * written, so that reading the line again later gives the same key.
   */
  key: string;
}

/**
 * The game's ban files are shared: the game, other tools and people write them too. Garrison never renders
 * one whole; it adds and removes single lines and keeps every other line byte for byte.
 */
export interface BanManager {
  /** The file that holds bans of this identity kind (one file for every kind, or one per kind). */
  banFilePath(ctx: ServerContext, kind: string): string;
  /**
   * One line of a ban file (without its line break) as a ban, or null for a line that is not one (a
   * comment, a header, anything unreadable). `readAt` anchors an expiry the format writes relative to reading.
   */
  parseBanLine(line: string, readAt: Date): BanFileEntry | null;
  /** The line (without line break) that adds this ban; parseBanLine reads it back with the same key. */
  formatBanLine(ban: BanEntry): string;
}
