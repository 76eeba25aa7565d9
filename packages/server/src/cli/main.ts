import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { flagSettings, resolveSettings, settingsFromEnv, settingsFromFlags } from '../settings.js';
import { SettingError } from '../setting-specs.js';
import { COMMANDS, generalUsage, parse, redactKeys, UsageError, type Options } from './usage.js';

// The commands load the service's modules when they run: help, a version or a usage error answer at once.
const serveCommand = () => import('./serve.js');
const store = () => import('./store.js');
const usersCommands = () => import('./users.js');
/** The service's own version, as the API reports it (system/version.ts). */
const version = async () => (await import('../system/version.js')).SERVICE_VERSION;

const optionsOf = (command: 'serve' | 'data'): Options =>
  Object.fromEntries(flagSettings(command).map((s) => [s.flag!, { type: 'string' }]));
const SERVE_OPTIONS = optionsOf('serve');
const STORE_OPTIONS = optionsOf('data');

async function run(argv: string[]): Promise<void> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h') return void console.log(generalUsage());
  if (first === '--version' || first === '-v') return void console.log(await version());
  if (first === 'help') {
    const topic = [second, ...rest].filter(Boolean).join(' ');
    if (!topic) return void console.log(generalUsage());
    const command = COMMANDS[topic];
    if (!command) throw new UsageError(`no command ${JSON.stringify(topic)}; the commands are ${Object.keys(COMMANDS).join(', ')}`);
    return void console.log(command.usage());
  }
  const twoWords = `${first} ${second ?? ''}`.trim();
  const name = COMMANDS[first] ? first : COMMANDS[twoWords] ? twoWords : null;
  if (!name) throw new UsageError(`unknown command ${JSON.stringify(twoWords)}; the commands are ${Object.keys(COMMANDS).join(', ')}`);
  const args = name === first ? argv.slice(1) : rest;
  if (args.includes('--help') || args.includes('-h')) return void console.log(COMMANDS[name].usage());

  switch (name) {
    case 'serve': {
      const { values } = parse(name, args, SERVE_OPTIONS, 0);
      const settings = resolveSettings({ ...settingsFromEnv(), ...settingsFromFlags(values as Record<string, string>) });
      return (await serveCommand()).serve(settings);
    }
    case 'migrate': {
      const { values } = parse(name, args, { ...STORE_OPTIONS, unlock: { type: 'boolean' } }, 0);
      const { migrateOnly } = await import('./migrate.js');
      return (await store()).withStore(values, (s) => migrateOnly(s, Boolean(values.unlock)), { migrate: false });
    }
    case 'admin reset-password': {
      const { values, positionals } = parse(name, args, { ...STORE_OPTIONS, 'password-stdin': { type: 'boolean' } }, 1);
      const { resetPassword } = await usersCommands();
      return (await store()).withStore(values, (s) =>
        resetPassword(s, positionals[0] ?? s.settings.adminUsername, Boolean(values['password-stdin'])),
      );
    }
    case 'admin reset-2fa': {
      const { values, positionals } = parse(name, args, STORE_OPTIONS, 1);
      if (!positionals[0]) throw new UsageError('the user name is missing', name);
      const { resetTwoFactor } = await usersCommands();
      return (await store()).withStore(values, (s) => resetTwoFactor(s, positionals[0]));
    }
    case 'admin rotate-jwt-secret': {
      const { values } = parse(name, args, STORE_OPTIONS, 0);
      const { rotateJwtSecret } = await import('./rotate-secret.js');
      return (await store()).withStore(values, (s) => rotateJwtSecret(s));
    }
    case 'users list': {
      const { values } = parse(name, args, { ...STORE_OPTIONS, json: { type: 'boolean' } }, 0);
      const { listUsers } = await usersCommands();
      return (await store()).withStore(values, (s) => listUsers(s, Boolean(values.json)));
    }
    case 'users create': {
      const { values, positionals } = parse(
        name,
        args,
        { ...STORE_OPTIONS, role: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
        1,
      );
      if (!positionals[0]) throw new UsageError('the user name is missing', name);
      const role = values.role ?? 'viewer';
      if (role !== 'viewer' && role !== 'admin') throw new UsageError(`--role must be viewer or admin; got ${JSON.stringify(role)}`, name);
      const { createUser } = await usersCommands();
      return (await store()).withStore(values, (s) => createUser(s, positionals[0], role, Boolean(values['password-stdin'])));
    }
    case 'audit verify': {
      const { values } = parse(name, args, { ...STORE_OPTIONS, json: { type: 'boolean' } }, 0);
      const { verifyAudit } = await import('./audit.js');
      return (await store()).withStore(values, (s) => verifyAudit(s, Boolean(values.json)));
    }
    case 'backup-db': {
      const { values, positionals } = parse(name, args, STORE_OPTIONS, 1);
      if (!positionals[0]) throw new UsageError('the path of the copy is missing', name);
      const { backupDatabase } = await import('../db/backup.js');
      return (await store()).withStore(values, async (s) => {
        const { path, bytes } = await backupDatabase(s.db, resolvePath(positionals[0]));
        console.log(`database copied to ${path} (${bytes} bytes), integrity check ok`);
      });
    }
    case 'servers list':
    case 'servers start':
    case 'servers stop':
    case 'servers restart':
    case 'rcon':
      return (await import('./remote.js')).runRemote(name, args);
    case 'import': {
      const { values } = parse(
        name,
        args,
        {
          ...STORE_OPTIONS,
          exe: { type: 'string' },
          name: { type: 'string' },
          config: { type: 'string' },
          basic: { type: 'string' },
          profile: { type: 'string' },
          'command-line': { type: 'string' },
          'command-line-file': { type: 'string' },
          'dry-run': { type: 'boolean' },
          json: { type: 'boolean' },
          'game-port': { type: 'string' },
          'rcon-port': { type: 'string' },
        },
        0,
      );
      if (!values.exe) throw new UsageError('--exe is missing: the executable of the server to import', name);
      if (values['command-line'] && values['command-line-file'])
        throw new UsageError('give --command-line or --command-line-file, not both', name);
      const commandLine = values['command-line-file'] ? readFileSync(String(values['command-line-file']), 'utf8') : values['command-line'];
      const request = {
        exe_path: String(values.exe),
        ...(values.name ? { name: String(values.name) } : {}),
        ...(values.config ? { config_path: String(values.config) } : {}),
        ...(values.basic ? { basic_path: String(values.basic) } : {}),
        ...(values.profile ? { profile_path: String(values.profile) } : {}),
        ...(commandLine ? { command_line: String(commandLine) } : {}),
        ...portFlag(values['game-port'], 'game-port', 'game_port', name),
        ...portFlag(values['rcon-port'], 'rcon-port', 'rcon_port', name),
        dry_run: Boolean(values['dry-run']),
      };
      const { importServer } = await import('./import.js');
      return (await store()).withStore(values, (s) => importServer(s, request, Boolean(values.json)));
    }
  }
}

/** `--game-port 2402` as the request's `game_port`: a port from 1024 to 65535, or the usage. */
function portFlag(value: unknown, flag: string, field: 'game_port' | 'rcon_port', command: string): Record<string, number> {
  if (value === undefined) return {};
  const port = Number(value);
  if (!/^\d+$/.test(String(value)) || port < 1024 || port > 65535)
    throw new UsageError(`--${flag} must be a port from 1024 to 65535, not ${JSON.stringify(value)}`, command);
  return { [field]: port };
}

/** The `garrison` command: 0 done, 1 failed, 2 called wrongly (with the reason and the usage on stderr). */
export function main(argv: string[]): void {
  run(argv).catch((err: unknown) => {
    if (err instanceof UsageError || err instanceof SettingError) {
      console.error(`garrison: ${redactKeys(err.message, argv)}`);
      const command = err instanceof UsageError && err.command ? err.command : null;
      console.error(command ? `\n${COMMANDS[command].usage()}` : '\nRun garrison --help for the commands.');
      process.exit(2);
    }
    console.error(`garrison: ${redactKeys((err as Error).message ?? String(err), argv)}`);
    process.exit(1);
  });
}
