import { parseArgs, type ParseArgsConfig } from 'node:util';
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

export type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, with its complaints turned into usage errors that name the accepted flags. */
export function parse(command: string, args: string[], options: Options, positionals: number) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (parsed.positionals.length > positionals)
      throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals])}`, command);
    return parsed;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const accepted = Object.keys(options)
      .map((o) => `--${o}`)
      .join(', ');
    throw new UsageError(`${(err as Error).message.split('. ')[0]}; garrison ${command} accepts ${accepted}`, command);
  }
}

/**
 * `text` without any API key in it: the one in GARRISON_API_KEY, the one after --api-key, and anything
 * shaped like a key (one given by mistake where another argument was expected).
 */
export function redactKeys(text: string, argv: string[]): string {
  const given = argv.flatMap((arg, i) =>
    arg === '--api-key' ? [argv[i + 1]] : arg.startsWith('--api-key=') ? [arg.slice('--api-key='.length)] : [],
  );
  const keys = [process.env.GARRISON_API_KEY, ...given].filter((k): k is string => Boolean(k && k.length >= 4));
  let redacted = text.replace(/gar_\d+_[A-Za-z0-9_-]+/g, 'gar_***');
  for (const key of keys) redacted = redacted.split(key).join('***');
  return redacted;
}

/** How the commands that talk to a running service reach it (see remote.ts). */
const connectionLines = () => `Connection (a flag wins over its environment variable):
  --url URL           GARRISON_URL       where the service runs, e.g. http://127.0.0.1:8080
  --api-key KEY       GARRISON_API_KEY   an API key (gar_…; the console's Account page makes one); prefer
                                         the variable: a flag is seen by every user of the host (ps)
  --timeout SECONDS   the longest wait for each answer of the service (default ${DEFAULT_TIMEOUT_S})
  --json              the service's answer as JSON on stdout, for scripts

Exit status: 0 done, 1 the service refused (its error code and message on stderr) or could not be
reached, 2 called wrongly.`;

/** Seconds the remote commands wait for an answer: a stop waits up to the game's shutdown (30 s) and more. */
export const DEFAULT_TIMEOUT_S = 60;

const flagLines = (command: 'serve' | 'data') =>
  flagSettings(command)
    .map((s) => {
      const value = s.flag === 'database' ? 'URL' : s.flag === 'data-dir' ? 'DIR' : 'VALUE';
      return `  --${`${s.flag} ${value}`.padEnd(18)} ${s.env.padEnd(22)} ${s.meaning} (default ${shownDefault(s)})`;
    })
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
  'audit verify': {
    summary: 'check that the audit trail is whole: every entry unchanged, none removed or inserted',
    usage: () => `usage: garrison audit verify [--json] [flags]

Recomputes the hash of every entry of the audit trail, oldest first, and checks that each names the
one before it and that the last is the one the chain's head records. Prints the first broken link and
exits 1 when there is one; 0 when the chain holds. Entries pruned by the retention are not needed: the
chain starts from the hash of the last one pruned. --json prints {ok, checked, anchor_id, broken}.
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

Reads the server beside PATH (its config files, profile, remote-admin config and ban file, the start
command line, as the game's adapter knows them) and makes a Garrison server of it; every file must be
inside PATH's folder. With --dry-run, prints what it would do and writes nothing. Safe while the
service runs.

  --exe PATH          the server's executable, in the game's installation folder
  --config PATH       server.cfg (default: -config= of the command line, or beside the executable)
  --basic PATH        basic.cfg (default: -cfg= of the command line, or beside the executable)
  --profile PATH      the server profile (default: found from -profiles= and -name=)
  --command-line TEXT the start command as kept; --command-line-file reads it from a script file
  --name NAME         the server's name (default: the hostname of server.cfg)
  --game-port PORT    the game port (default: -port= of the command line)
  --rcon-port PORT    the remote admin port (default: the installation's files', or the game's default)
  --dry-run           print the plan only
  --json              the plan as JSON
${flagLines('data')}`,
  },
  'servers list': {
    summary: 'list the servers of a running service (API key scope servers:read)',
    usage: () => `usage: garrison servers list [--json] [connection flags]

A table of the servers: id, name, game, status, players, game port, what needs attention; with --json,
the API's list (GET /api/servers, every page) as one JSON array.

${connectionLines()}`,
  },
  'servers start': {
    summary: 'start a server of a running service (servers:control)',
    usage: () =>
      serverActionUsage(
        'start',
        '',
        'Starts the game process (POST /api/servers/{id}/start); its status is starting until the game answers.',
      ),
  },
  'servers stop': {
    summary: 'stop a server of a running service (servers:control)',
    usage: () =>
      serverActionUsage(
        'stop',
        ' [--force] [--reason TEXT]',
        `Stops the game through its remote admin; the service kills it after its stop time-out
(GARRISON_STOP_TIMEOUT_MS), or at once with --force.

  --force             skip the graceful shutdown
  --reason TEXT       kept in the audit trail`,
      ),
  },
  'servers restart': {
    summary: 'restart a server of a running service (servers:control)',
    usage: () => serverActionUsage('restart', '', 'Stops the game, then starts it (POST /api/servers/{id}/restart).'),
  },
  rcon: {
    summary: 'run a remote-admin command on a running server (rcon)',
    usage: () => `usage: garrison rcon SERVER COMMAND... [--json] [connection flags]

Runs COMMAND (its words joined by spaces) through the server's remote admin and prints the game's
answer; --json prints {"response": …}. Put -- before COMMAND when a word of it begins with a dash
(garrison rcon 1 -- say -1 Hello).
SERVER is an id or a name (see garrison help servers start).

${connectionLines()}`,
  },
};

function serverActionUsage(action: string, flags: string, what: string): string {
  return `usage: garrison servers ${action} SERVER${flags} [--json] [connection flags]

${what}

SERVER is the server's id, or its name: a name shared by several servers is refused (exit 2), the id
then says which; a name is matched exactly, else ignoring case, and needs the scope servers:read.

${connectionLines()}`;
}

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
