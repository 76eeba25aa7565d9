import { flagSettings, SETTINGS, shownDefault } from '../settings.js';

/** A mistake in how the command was called: the CLI prints it with the command's usage and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: string | null = null,
  ) {
    super(message);
  }
}

const flagLines = (command: 'serve' | 'data') =>
  flagSettings(command)
    .map((s) => `  --${`${s.flag} ${s.flag === 'database' ? 'URL' : s.flag === 'data-dir' ? 'DIR' : 'VALUE'}`.padEnd(18)} ${s.env.padEnd(22)} ${s.meaning} (default ${shownDefault(s)})`)
    .join('\n');

const environment = () =>
  SETTINGS.filter((s) => !s.flag)
    .map((s) => `  ${s.env.padEnd(36)} ${s.meaning} (default ${shownDefault(s)})`)
    .join('\n');

export const COMMANDS: Record<string, { summary: string; usage: () => string }> = {
  serve: {
    summary: 'run the service (SIGTERM or SIGINT stops it; game servers keep running)',
    usage: () => `usage: garrison serve [flags]

Flags (a flag wins over its environment variable):
${flagLines('serve')}

Environment only:
${environment()}`,
  },
  migrate: {
    summary: 'bring the database schema up to date, and nothing else',
    usage: () => `usage: garrison migrate [--unlock] [flags]

  --unlock            free the migration lock left by a migration that was cut off, then migrate
${flagLines('data')}`,
  },
  'admin reset-password': {
    summary: "set a user's password without the current one",
    usage: () => `usage: garrison admin reset-password [USERNAME] [--password-stdin] [flags]

Sets a new password for USERNAME (default: GARRISON_ADMIN_USERNAME, or admin) and prints it once;
with --password-stdin, reads the password from standard input instead. Safe while the service runs.
${flagLines('data')}`,
  },
  'admin reset-2fa': {
    summary: "turn off a user's two-factor sign-in (a locked-out admin)",
    usage: () => `usage: garrison admin reset-2fa USERNAME [flags]

Turns off two-factor sign-in for USERNAME and drops their recovery codes: they sign in with their
password alone, and may enrol again. Safe while the service runs.
${flagLines('data')}`,
  },
  'admin rotate-jwt-secret': {
    summary: 'make a new token signing secret and end every session (a leaked secret)',
    usage: () => `usage: garrison admin rotate-jwt-secret [flags]

Makes a new signing secret for access tokens, written to <data dir>/jwt-secret (0600), and ends every
sign-in session of every user: tokens signed before are refused, whoever signed them. When
GARRISON_JWT_SECRET is set, the new secret is printed instead, for you to put there. Restart the
service (every instance of a cluster) afterwards so that it signs with the new secret. API keys are
not tokens and stay valid: revoke those that may have leaked with the secret.
${flagLines('data')}`,
  },
  'users list': {
    summary: 'list the users',
    usage: () => `usage: garrison users list [--json] [flags]

  --json              one JSON array instead of a table
${flagLines('data')}`,
  },
  'users create': {
    summary: 'create a user',
    usage: () => `usage: garrison users create USERNAME [--role viewer|admin] [--password-stdin] [flags]

Creates the user (role viewer by default) and prints a generated password once; with
--password-stdin, reads the password from standard input instead.
${flagLines('data')}`,
  },
  'backup-db': {
    summary: "copy Garrison's own database (SQLite) while the service runs, checked before it is kept",
    usage: () => `usage: garrison backup-db PATH [flags]

Copies the SQLite database to PATH with SQLite's online backup (safe while the service runs), checks
the copy with PRAGMA integrity_check, and only then gives it its name (mode 0600: it holds the game
servers' passwords). For MySQL/MariaDB use mariadb-dump --single-transaction instead (docs/deploy.md).
${flagLines('data')}`,
  },
  import: {
    summary: 'adopt an existing server: its config, ports, mods, bans and missions (as POST /api/servers/import)',
    usage: () => `usage: garrison import --exe PATH [--config PATH] [--basic PATH] [--profile PATH]
                      [--command-line TEXT | --command-line-file FILE] [--name NAME]
                      [--game-port PORT] [--rcon-port PORT] [--dry-run] [--json] [flags]

Reads the server beside PATH (server.cfg, basic.cfg, the profile, BattlEye's config and bans.txt, the
start command line) and makes a Garrison server of it; every file must be inside PATH's folder. With
--dry-run, prints what it would do and writes nothing. Safe while the service runs.

  --exe PATH          the server's executable (gameaserver_x64.exe)
  --config PATH       server.cfg (default: -config= of the command line, or beside the executable)
  --basic PATH        basic.cfg (default: -cfg= of the command line, or beside the executable)
  --profile PATH      the server profile (default: found from -profiles= and -name=)
  --command-line TEXT the start command as kept; --command-line-file reads it from a script file
  --name NAME         the server's name (default: the hostname of server.cfg)
  --game-port PORT    the game port (default: -port= of the command line)
  --rcon-port PORT    the RCon port (default: RConPort of BattlEye's config, or the game port + 3)
  --dry-run           print the plan only
  --json              the plan as JSON
${flagLines('data')}`,
  },
};

export function generalUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return `Garrison: a management service for dedicated game servers.

usage: garrison <command> [flags]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}
  ${'help [command]'.padEnd(width)}  this text, or a command's flags and environment variables

  --help, -h          this text        --version           the version

Every setting, with its default: garrison help serve.`;
}
