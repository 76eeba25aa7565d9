import type { LivePlayer, PlayerIdentity } from '@garrison/core';
import { isSteamId, normalizeSteamId } from './identity.js';

/**
 * A row of the `status` table, as the engine branches print it:
 * `#      2 "Player One"    STEAM_0:1:1234  05:12   67    0 active 1.2.3.4:27005` (older),
 * `#      2 "Player One"    [U:1:2469]      05:12   67    0 active 1.2.3.4:27005` (SteamID3),
 * `#  2 1 "Player One" STEAM_1:1:1234 05:12 67 0 active 196608 1.2.3.4:27005` (a slot column and a rate),
 * `#      3 "Bob" BOT active` (a bot). The name is in quotes and may hold spaces and quotes of its own: it
 * runs to the last quote that a uniqueid follows.
 */
const ROW = /^#\s*(\d+)\s+(?:\d+\s+)?"(.*)"\s+(STEAM_[0-5]:[01]:\d+|\[U:\d+:\d+\]|BOT|STEAM_ID_PENDING|STEAM_ID_LAN|\S+)(?:\s+(.*))?$/i;
/**
 * A row longer than any the game prints (a name has at most 32 characters) is not read, nor lines past
 * the first 1024: the row pattern backtracks over the name, and a hostile answer of endless lines full
 * of quotes would otherwise hold the service's loop. More rows than a server has slots are not players.
 */
const MAX_ROW = 256;
const MAX_LINES = 1024;
const MAX_PLAYERS = 256;
const ADDRESS = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/;
const TIME = /^\d+(?::\d{2}){1,2}$/;

function identityOf(uniqueId: string): PlayerIdentity | null {
  // A bot, a player Steam has not confirmed yet (STEAM_ID_PENDING) or a LAN player has no SteamID to ban.
  return isSteamId(uniqueId) ? { kind: 'STEAMID', value: normalizeSteamId(uniqueId) } : null;
}

/** Reads the answer of `status`: one player a row of its table; the header block and anything else are passed over. */
export function parseStatus(answer: string): LivePlayer[] {
  const players: LivePlayer[] = [];
  for (const raw of answer.split(/\r?\n|\r|\u2028|\u2029/, MAX_LINES)) {
    if (players.length >= MAX_PLAYERS) break;
    const line = raw.trim();
    if (line.length > MAX_ROW || !line.startsWith('#') || /^#\s*userid\b/i.test(line)) continue;
    const match = ROW.exec(line);
    if (!match) continue;
    const [, userid, name, uniqueId, rest = ''] = match as unknown as [string, string, string, string, string | undefined];
    const words = rest.split(/\s+/).filter(Boolean);
    const bot = uniqueId.toUpperCase() === 'BOT';
    // After the uniqueid: connected (mm:ss or h:mm:ss), ping, loss, state, [rate,] address; a bot has only its state.
    const timed = words.length >= 3 && TIME.test(words[0]);
    const ping = timed ? Number(words[1]) : 0;
    const address = ADDRESS.exec(words[words.length - 1] ?? '');
    players.push({
      slot_id: userid,
      name,
      ping: !bot && Number.isFinite(ping) ? ping : 0,
      id: identityOf(uniqueId),
      ip: address ? address[1] : null,
    });
  }
  return players;
}
