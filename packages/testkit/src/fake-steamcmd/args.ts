import { readFileSync } from 'node:fs';

/**
 * SteamCMD's command line: `+command arg arg +command …`, run in order. Every word up to the next one that
 * starts with `+` belongs to the command before it (as in steamcmd, a password starting with `+` cannot be
 * given this way).
 */
export interface SteamCommand {
  name: string;
  args: string[];
}

export class ArgumentError extends Error {}

export function parseCommands(argv: string[]): SteamCommand[] {
  const commands: SteamCommand[] = [];
  for (const word of argv) {
    if (word.startsWith('+') && word.length > 1) commands.push({ name: word.slice(1), args: [] });
    else if (commands.length === 0) throw new ArgumentError(`unexpected argument ${JSON.stringify(word)} before the first +command`);
    else commands.at(-1)!.args.push(word);
  }
  return commands;
}

/**
 * The commands with each `+runscript <file>` replaced by the file's: one command per line without its `+`,
 * words split at spaces, a value with spaces in double quotes, `//` starting a comment (SteamCMD's format).
 */
export function expandRunscripts(commands: SteamCommand[]): SteamCommand[] {
  return commands.flatMap((command) => {
    if (command.name.toLowerCase() !== 'runscript') return [command];
    if (command.args.length !== 1) throw new ArgumentError('runscript takes one file');
    let text: string;
    try {
      text = readFileSync(command.args[0], 'utf8');
    } catch (err) {
      throw new ArgumentError(`runscript ${command.args[0]}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    return text.split(/\r?\n/).flatMap((line) => {
      const words = [...line.matchAll(/"([^"]*)"?|(\/\/.*)|(\S+)/g)].filter((m) => m[2] === undefined).map((m) => m[1] ?? m[3]);
      return words.length === 0 ? [] : [{ name: words[0], args: words.slice(1) }];
    });
  });
}

/** The commands as a command line again (`+name arg …`): what the invocation log keeps of a runscript. */
export function commandLine(commands: SteamCommand[]): string[] {
  return commands.flatMap((c) => [`+${c.name}`, ...c.args]);
}

/**
 * The arguments with every secret as `***`: the password and Guard code of `+login <user> <password> [<code>]`
 * and the word after `-betapassword`. What the invocation log keeps.
 */
export function maskSecrets(argv: string[]): string[] {
  const masked = [...argv];
  for (let i = 0; i < masked.length; i += 1) {
    if (masked[i].toLowerCase() === '+login') {
      // +login <user> then every further word up to the next command is a secret (password, Guard code).
      for (let j = i + 2; j < masked.length && !masked[j].startsWith('+'); j += 1) masked[j] = '***';
    } else if (masked[i].toLowerCase() === '-betapassword' && i + 1 < masked.length) {
      masked[i + 1] = '***';
    }
  }
  return masked;
}
