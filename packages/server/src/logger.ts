import { pino, stdTimeFunctions, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './settings.js';

export interface LoggerOptions {
  level: string;
  /** null: readable lines on a terminal, JSON lines otherwise (what a process manager collects). */
  format?: LogFormat | null;
  /** Where the lines go; standard output by default. */
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
}

/** The service's one logger, ISO timestamps; secrets named here never reach a log line. */
export function createLogger({ level, format = null, destination = process.stdout }: LoggerOptions): Logger {
  const options = {
    level,
    base: { service: 'garrison' },
    timestamp: stdTimeFunctions.isoTime,
    redact: {
      paths: ['password', '*.password', 'req.headers.authorization', 'token', 'access_token', '*.rcon_password', '*.password_admin'],
      censor: '***',
    },
  };
  const readable = (format ?? (destination.isTTY ? 'pretty' : 'json')) === 'pretty';
  if (!readable) return pino(options, destination);
  const stream = pretty({
    destination,
    sync: true,
    colorize: Boolean(destination.isTTY),
    singleLine: true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l o',
    ignore: 'pid,hostname,service',
  });
  return pino(options, stream);
}
