import { resolve } from 'node:path';
import type { SteamCommand } from './args.js';
import { appInfoPrint } from './app-info.js';
import { appUpdate } from './app-update.js';
import { EXIT, type Outcome, type SteamConsole } from './context.js';
import { login } from './login.js';
import { workshopDownload } from './workshop.js';

type Handler = (steam: SteamConsole, args: string[]) => Outcome | Promise<Outcome>;

/** A convar set as `@Name 1` (steamcmd's `+@NoPromptForPassword 1`). */
function flag(set: (steam: SteamConsole, on: boolean) => void): Handler {
  return (steam, args) => {
    if (args.length !== 1 || !/^[01]$/.test(args[0])) {
      steam.out(`Usage: expected 0 or 1, got "${args.join(' ')}"`);
      return EXIT.error;
    }
    set(steam, args[0] === '1');
    return EXIT.ok;
  };
}

const HANDLERS: Record<string, Handler> = {
  '@nopromptforpassword': flag((steam, on) => (steam.noPromptForPassword = on)),
  '@shutdownonfailedcommand': flag((steam, on) => (steam.shutdownOnFailed = on)),
  force_install_dir: (steam, args) => {
    if (args.length !== 1) {
      steam.out('Usage: force_install_dir <path>');
      return EXIT.error;
    }
    // The real one takes it after a login too, but warns: the folder is read when logging on.
    if (steam.login) steam.out('Please use force_install_dir before logon!');
    steam.installDir = resolve(args[0]);
    return EXIT.ok;
  },
  login,
  app_update: appUpdate,
  workshop_download_item: workshopDownload,
  // The fake's app info is always fresh (read from the world), so updating it has nothing to do.
  app_info_update: () => EXIT.ok,
  app_info_print: appInfoPrint,
  quit: () => 'quit',
  exit: () => 'quit',
};

/** Runs one command; an unknown one is an error whatever `@ShutdownOnFailedCommand` says. */
async function runCommand(steam: SteamConsole, command: SteamCommand): Promise<Outcome> {
  const key = command.name.toLowerCase();
  const handler = Object.hasOwn(HANDLERS, key) ? HANDLERS[key] : undefined;
  if (!handler) {
    steam.out(`Unknown command "${command.name}"`);
    return EXIT.error;
  }
  return handler(steam, command.args);
}

/**
 * Runs the commands in order. A failed one ends the run when `@ShutdownOnFailedCommand` is on (and an unknown
 * one always does); otherwise the run goes on, and `quit` exits with the last failure's code.
 * Resolves with the exit code, or null when the commands ran out without `quit` (steamcmd then waits at its prompt).
 */
export async function runCommands(
  steam: SteamConsole,
  commands: SteamCommand[],
  lastFailure = 0,
): Promise<{ code: number | null; lastFailure: number }> {
  for (const command of commands) {
    const outcome = await runCommand(steam, command);
    if (outcome === 'quit') return { code: lastFailure, lastFailure };
    if (outcome !== EXIT.ok) {
      lastFailure = outcome;
      if (steam.shutdownOnFailed || !Object.hasOwn(HANDLERS, command.name.toLowerCase())) return { code: outcome, lastFailure };
    }
  }
  return { code: null, lastFailure };
}
