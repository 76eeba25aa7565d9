import type { LogEntry, LogLevel, ServerContext } from '@garrison/core';
import { layout } from './layout.js';

/** `L1127000.log`: `L`, month and day, and the file's number of the day. */
const LOG_FILE = /^L\d{7}\.log$/i;
/** `L 11/27/2026 - 02:07:19: ` in front of every line the game logs (its clock: the host's local time). */
const PREFIX = /^L (\d{2})\/(\d{2})\/(\d{4}) - (\d{2}):(\d{2}):(\d{2}): ?/;

export const logDirectory = (ctx: ServerContext) => layout(ctx).logs;
export const isLogFile = (fileName: string) => LOG_FILE.test(fileName);

/**
 * The level a line says it has. What players wrote or are called (`"Name<2><…><>" say "error"`) is in
 * quotes and says nothing of the server, so quoted text is left out before looking for the words.
 */
function levelOf(message: string): LogLevel {
  const own = message.replace(/"[^"]*"/g, '""');
  if (/\b(?:error|fatal|host_error)\b|\berror:/i.test(own)) return 'error';
  if (/\bwarning\b/i.test(own)) return 'warning';
  return 'info';
}

/** `rcon from "127.0.0.1:53012": command "rcon_password x"`: what a server with `sv_rcon_log 1` logs of each command. */
const RCON_COMMAND = /^(rcon from "[^"]*": command ")(.*)"$/;

/**
 * A log line (`L 11/27/2026 - 02:07:19: message`) or a line of the console output (no prefix: read as it
 * is). An RCON command the game logged keeps only its first word: its arguments may set a password,
 * and the log is every viewer's to read (the audit trail keeps the command, masked).
 */
export function parseLogLine(raw: string): LogEntry | null {
  const line = raw.replace(/\r$/, '');
  const prefix = PREFIX.exec(line);
  const said = prefix ? line.slice(prefix[0].length) : line;
  const rcon = RCON_COMMAND.exec(said);
  const message = rcon ? `${rcon[1]}${rcon[2].trim().split(/[\s;"]/)[0]} …"` : said;
  if (!message.trim()) return null;
  const entry: LogEntry = { level: levelOf(message), message };
  if (prefix) {
    const [mo, d, y, h, mi, s] = prefix.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const at = new Date(y, mo - 1, d, h, mi, s);
    // A date the calendar does not have (month 13) rolls over in Date: then the line's read time stands.
    if (at.getMonth() === mo - 1 && at.getDate() === d && at.getHours() === h) entry.timestamp = at;
  }
  return entry;
}

/** The map the game says it now plays: `Started map "de_dust2" (CRC "…")`, `Loading map "de_dust2"`; null otherwise. */
export function missionOf(message: string): string | null {
  const m = /^(?:Started|Loading) map "([^"]+)"/.exec(message.trim());
  return m ? m[1] : null;
}
