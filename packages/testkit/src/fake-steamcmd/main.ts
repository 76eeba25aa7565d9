#!/usr/bin/env node
// The fake steamcmd: `steamcmd +login … +app_update … +quit` (installed by `garrison-testkit install-fake-steamcmd`).
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ArgumentError, commandLine, expandRunscripts, maskSecrets, parseCommands } from './args.js';
import { runCommands } from './commands.js';
import { EXIT, SteamConsole } from './context.js';
import { envCount, watchOwner } from '../fake-process/environment.js';

const BANNER = [
  '[  0%] Checking for available updates...',
  '[----] Verifying installation...',
  'Steam Console Client (c) Valve Corporation - version 1716242052',
  "-- type 'quit' to exit --",
  'Loading Steam API...OK',
  '',
];

const write = (text: string) => process.stdout.write(text);

/** `STEAMCMD_FAKE_<name>`, or its former name `FAKE_STEAMCMD_<name>` (Garrison passes steamcmd only STEAMCMD_* variables). */
const envName = (name: string) => (process.env[`STEAMCMD_FAKE_${name}`] !== undefined ? `STEAMCMD_FAKE_${name}` : `FAKE_STEAMCMD_${name}`);

/** The test runner this fake goes with: `STEAMCMD_FAKE_WATCH_PID`, or `GAMEA_FAKE_WATCH_PID`, which the runner sets for every fake. */
function ownerPid(): number {
  const refuse = (message: string) => new ArgumentError(message);
  return envCount(envName('WATCH_PID'), envCount('GAMEA_FAKE_WATCH_PID', 0, refuse), refuse);
}

export async function main(exePath: string, argv: string[]): Promise<void> {
  const started = new Date().toISOString();
  let finished = false;
  /** What ran: the command line with any runscript's commands in its place (what the invocation log keeps). */
  let ran = argv;
  /** Logs the run (secrets masked) once, then exits: by a signal's own death, so that the parent sees it. */
  const finish = (code: number | NodeJS.Signals): void => {
    if (finished) return;
    finished = true;
    const log = process.env[envName('LOG')];
    if (log) {
      // `argv` is what ran (a runscript's commands inlined), `cmdline` the process's own arguments.
      const env = Object.keys(process.env).sort();
      const entry = { argv: maskSecrets(ran), cmdline: maskSecrets(argv), env, time: started, exit_code: code, pid: process.pid };
      appendFileSync(log, `${JSON.stringify(entry)}\n`);
    }
    if (typeof code === 'number') process.exit(code);
    process.removeAllListeners(code);
    process.kill(process.pid, code);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => finish(signal));

  const exeDir = dirname(exePath);
  const logs = join(exeDir, 'logs');
  write(`Redirecting stderr to '${join(logs, 'stderr.txt')}'\n`);
  try {
    watchOwner(ownerPid(), () => finish('SIGTERM'));
    mkdirSync(logs, { recursive: true });
    writeFileSync(join(logs, 'stderr.txt'), '');
    const statePath = process.env[envName('STATE')];
    if (!statePath) throw new ArgumentError('STEAMCMD_FAKE_STATE is not set (FakeSteamWorld.env() gives it)');
    const commands = expandRunscripts(parseCommands(argv));
    ran = commandLine(commands);
    for (const line of BANNER) write(`${line}\n`);
    const steam = new SteamConsole(statePath, exeDir, write);
    const outcome = await runCommands(steam, commands);
    if (outcome.code !== null) return finish(outcome.code);
    finish(await prompt(steam, outcome.lastFailure));
  } catch (err) {
    process.stderr.write(`steamcmd (fake): ${err instanceof ArgumentError ? err.message : String(err)}\n`);
    finish(EXIT.error);
  }
}

/**
 * Without `+quit` the real steamcmd stays at its `Steam>` prompt, reading commands from stdin, until `quit` or the
 * end of its input: a caller that forgets `+quit` and keeps stdin open waits for ever, here as there.
 */
async function prompt(steam: SteamConsole, lastFailure: number): Promise<number> {
  write('\nSteam>');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      write('Steam>');
      continue;
    }
    const ran = await runCommands(steam, [{ name: words[0], args: words.slice(1) }], lastFailure);
    if (ran.code !== null) return ran.code;
    lastFailure = ran.lastFailure;
    write('Steam>');
  }
  write('\n');
  return lastFailure;
}

// The installed launcher passes its own path first, so the fake knows its folder (logs, default downloads).
const [exePath, ...args] = process.argv.slice(2);
if (exePath) void main(exePath, args);
