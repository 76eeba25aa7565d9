import type { RemoteAdmin, RemoteAdminTarget } from '@garrison/core';
import { BattlEyeClient } from '@garrison/battleye';
import { kickCommand, listPlayers, parsePlayerEvent } from './players.js';
import { commandProblem, KNOWN_COMMANDS, redactCommand } from './commands.js';

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** BattlEye reads its whole bans.txt again: how a ban the service wrote (or took out) takes effect in a running game. */
const loadBans = async (run: (text: string) => Promise<string>) => {
  await run('loadBans');
};

/**
 * The game's remote admin: BattlEye RCon over UDP. Every command the service has the game run is composed
 * here; bans live in bans.txt (written by the service), which BattlEye reads again on `loadBans`.
 */
export const remoteAdmin: Omit<RemoteAdmin, 'target'> = {
  connect: (target: RemoteAdminTarget) => BattlEyeClient.connect(target),
  listPlayers,
  kick: async (run, slotId, reason) => {
    await run(kickCommand(slotId, reason));
  },
  say: async (run, message) => {
    await run(`say -1 ${oneLine(message)}`);
  },
  ban: (run) => loadBans(run),
  unban: (run) => loadBans(run),
  reloadBans: (run) => loadBans(run),
  shutdown: async (run) => {
    await run('#shutdown');
  },
  playMission: async (run, name, options) => {
    const difficulty = options.difficulty;
    await run(`#mission ${name}${difficulty ? ` ${difficulty}` : ''}`);
  },
  knownCommands: KNOWN_COMMANDS,
  commandProblem,
  redactCommand,
  parsePlayerEvent,
};
