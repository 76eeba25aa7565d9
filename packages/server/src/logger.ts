import { pino, type Logger } from 'pino';

/** Structured JSON logs on stdout; secrets named here never reach a log line. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'garrison' },
    redact: {
      paths: ['password', '*.password', 'req.headers.authorization', 'token', 'access_token', '*.rcon_password', '*.password_admin'],
      censor: '***',
    },
  });
}
