import type { ServerContext } from './contract.js';

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface LogEntry {
  level: LogLevel;
  /** The line's text, without the time the game wrote in front of it. */
  message: string;
  /** When the game wrote the line, where the line carries a full date; otherwise it is the time the line was read. */
  timestamp?: Date;
}

/** Reads the lines of one stream (a log file, the process output) in order, keeping what it needs between them. */
export type LogLineReader = (line: string) => LogEntry | null;

/**
 * The game's logs: what the process prints, and the log files the game writes into a folder (the newest
 * one is followed). The service names no game's files: the adapter says which files are logs.
 */
export interface LogParser {
  /** Folder the game writes its log files into. */
  logDirectory(ctx: ServerContext): string;
  /** Whether a file of that folder is one of the game's logs (`*.rpt`, `L1127000.log`). */
  isLogFile(fileName: string): boolean;
  /** One line of output as a log entry, or null for a line not worth reporting. */
  parseLine(line: string): LogEntry | null;
  /** The mission a log message says the game now plays (`Mission X read from bank.`), or null. */
  missionOf?(message: string): string | null;
  /**
   * A reader for one stream, for a game whose lines depend on the ones before them (a continuation line
   * belongs to the entry above it). Without it, every line is read alone by `parseLine`.
   */
  reader?(): LogLineReader;
}
