import type { LogEntry, LogLevel, LogLineReader } from '@garrison/core';

/**
 * The game's `.rpt` lines. A line starts with the time in one of the forms `timeStampFormat` gives
 * (` 3:45:43 ` or `17:24:02 ` for "short", `2021/09/29, 11:11:19 ` for "full") or with none ("none",
 * the header block, and the rest of a multi-line message). The message is the text after the time,
 * as written (an error block's indentation included); only the line break goes.
 */
const SHORT_TIME = /^ ?\d{1,2}:\d{2}:\d{2}(?:\.\d{1,3})? /;
const FULL_TIME = /^ ?(\d{4})\/(\d{1,2})\/(\d{1,2}), {1,2}(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))? /;

/**
 * Where the game says a line's level. It says it at the start (`Error in expression`, `  Error position:`,
 * `ErrorMessage:`, `Warning Message:`) or after a prefix of its own (`[CBA] (xeh) WARNING:`,
 * `Sound: Error:`); the first marker in the line decides.
 */
const MARKERS: [RegExp, LogLevel][] = [
  [/^\s*error(?=\b|message\b)|\berror(?::|message\b| in expression\b)/i, 'error'],
  [/^\s*warning\b|\bwarning(?::| message\b)/i, 'warning'],
  [/^\s*debug\b|\bdebug:/i, 'debug'],
];

function levelOf(message: string): LogLevel {
  let found: { at: number; level: LogLevel } | null = null;
  for (const [pattern, level] of MARKERS) {
    const at = message.search(pattern);
    if (at >= 0 && (!found || at < found.at)) found = { at, level };
  }
  return found?.level ?? 'info';
}

interface Stamped {
  message: string;
  /** Whether the line began with a time. */
  timed: boolean;
  /** The game's own time, when the line carries a full date (the game's clock is the host's local time). */
  at?: Date;
}

function stripTime(line: string): Stamped {
  const full = FULL_TIME.exec(line);
  if (full) {
    const [y, mo, d, h, mi, s] = full.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const at = new Date(y, mo - 1, d, h, mi, s, Number((full[7] ?? '0').padEnd(3, '0')));
    // A date the calendar does not have (month 13) rolls over in Date: then the line's read time stands.
    const real = at.getMonth() === mo - 1 && at.getDate() === d;
    return { message: line.slice(full[0].length), timed: true, ...(real ? { at } : {}) };
  }
  const short = SHORT_TIME.exec(line);
  if (short) return { message: line.slice(short[0].length), timed: true };
  return { message: line, timed: false };
}

/** One line read alone: its level from its own markers. */
export function parseLogLine(line: string): LogEntry | null {
  const { message, at } = stripTime(line.replace(/\r$/, ''));
  if (!message.trim()) return null;
  return { level: levelOf(message), message, ...(at ? { timestamp: at } : {}) };
}

/**
 * A line that begins with one of the game's level words (`Error: Object(23 : 706) not found`,
 * `ErrorMessage: File …`, `Warning: Convex component …`), unindented: the game writes these without a
 * time even in a log that has times (`ErrorMessage:` after `Application terminated intentionally`), and
 * every line without one under timeStampFormat "none", so such a line is an entry of its own.
 */
const LEVEL_WORD = /^(?:error(?=\b|message\b)|warning\b|debug\b)/i;

/**
 * The lines of one log in order. A line with a time, or without one but beginning with a level word,
 * starts an entry. A line without a time that does not is the rest of the entry above it (the lines of
 * an error block, an XML fragment) and gets that entry's level and time: an indented line always, a
 * plain line where the log has times. Where no line has a time (timeStampFormat "none", the header
 * block), a plain line cannot be told from a new message, so it stands alone.
 */
export function logReader(): LogLineReader {
  let entry: { level: LogLevel; at?: Date } | null = null;
  let timedLog = false;
  return (raw) => {
    const { message, timed, at: ownTime } = stripTime(raw.replace(/\r$/, ''));
    if (!message.trim()) return null;
    const continues = !timed && entry !== null && !LEVEL_WORD.test(message) && (timedLog || /^\s/.test(message));
    if (continues) return { level: entry!.level, message, ...(entry!.at ? { timestamp: entry!.at } : {}) };
    timedLog ||= timed;
    // An entry without a time of its own was written at or after the one above: it keeps that time, not the read time, so that it sorts
    // where the game wrote it.
    const at = timed ? ownTime : entry?.at;
    entry = { level: levelOf(message), ...(at ? { at } : {}) };
    return { level: entry.level, message, ...(at ? { timestamp: at } : {}) };
  };
}

/**
 * The mission the game says it now plays: `Mission <name> read from bank.` when a mission is chosen,
 * ` Mission file: <name> (__cur_mp)` as it starts; null for any other message.
 */
export function missionOf(message: string): string | null {
  const m = /^Mission (\S+) read from bank\.$/.exec(message.trim()) ?? /^Mission file: (\S+)/.exec(message.trim());
  return m ? m[1] : null;
}

/** The game's log files: `<exe>_<date>.rpt` in the profile folder (any case, as a Windows host names them). */
export function isLogFile(fileName: string): boolean {
  return fileName.toLowerCase().endsWith('.rpt');
}
