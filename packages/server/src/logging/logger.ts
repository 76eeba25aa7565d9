import { pino, stdTimeFunctions, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './settings.js';
import { settlesWithin, type Clock } from '../jobs/clock.js';

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
      paths: [
        ...['password', '*.password', 'req.headers.authorization', 'token', 'access_token', '*.rcon_password', '*.password_admin'],
        // A failed spawn's error keeps the child's whole command line, which may hold a secret (SteamCMD's login).
        ...['spawnargs', '*.spawnargs', '*.*.spawnargs'],
      ],
      censor: '***',
    },
  };
  const readable = (format ?? (destination.isTTY ? 'pretty' : 'json')) === 'pretty';
  if (!readable) {
    if (destination !== process.stdout) return pino(options, destination);
    const output = standardOutput();
    const ending = { now: false };
    // Lines logged once the log is ending (by whatever still runs while the process exits) are dropped,
    // not written to a closed stream, which would throw in the code that logged them.
    const logger = pino(options, { write: (line: string) => void (ending.now || output.write(line)) });
    asyncOutputs.set(logger, { output, ending });
    return logger;
  }
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

/**
 * Standard output through sonic-boom, writing asynchronously: while one write is under way the next lines
 * gather and go out together, instead of a system call per line that a loaded service would wait on (a
 * fifth of its CPU in bench/http-read). pino writes what is left synchronously when the process exits.
 * Bounded: lines that would grow the backlog past 16 MiB (a reader that stopped reading) are dropped.
 */
function standardOutput(): SonicBoom {
  return pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 });
}

type SonicBoom = ReturnType<typeof pino.destination>;
const asyncOutputs = new WeakMap<Logger, { output: SonicBoom; ending: { now: boolean } }>();

/**
 * Writes out the log before the process exits. At exit pino writes synchronously what is queued, but a
 * write still under way finishes on its own, after: the last lines may come out ahead of earlier ones, or
 * not at all (the likely cause of a CI run that read "listening" as a stopped service's last line).
 * Bounded: a reader that stopped reading does not hold the exit past the deadline.
 */
export async function endLog(logger: Logger, clock: Clock, deadlineMs = 2_000): Promise<void> {
  const log = asyncOutputs.get(logger);
  if (!log || log.ending.now) return;
  const { output, ending } = log;
  const closed = new Promise((resolve) => output.once('close', resolve));
  output.end();
  ending.now = true;
  await settlesWithin(clock, closed, deadlineMs, 'the log written out');
}
