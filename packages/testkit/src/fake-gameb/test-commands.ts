import type { ConsoleHandler } from './commands.js';
import type { FakeGameB } from './game.js';

/**
 * Exactly `bytes` bytes of numbered lines (`line 00001 ……\n`), for a reply that spans as many RCON
 * packets as a test wants; tests build the same text to compare.
 */
export function bigReplyText(bytes: number): string {
  let text = '';
  for (let n = 1; text.length < bytes; n += 1) text += `line ${String(n).padStart(5, '0')} ${'abcdefghij'.repeat(6)}\n`;
  return text.slice(0, bytes);
}

const MAX_BIG_REPLY = 10_000_000;

/**
 * Commands for tests, over RCON like any other (the fake gamea's `testkit.*` mechanism): players
 * join and leave, the map ends, the log gets a line, the process crashes or hangs, RCON clients are cut.
 */
export function installTestCommands(game: FakeGameB, handlers: Map<string, ConsoleHandler>): void {
  const on = (name: string, handler: ConsoleHandler) => handlers.set(name, handler);

  // testkit.join NAME STEAMID ADDRESS: NAME may be quoted or several words; ADDRESS is ip or ip:port.
  on('testkit.join', (words) => {
    if (words.length < 3) return 'usage: testkit.join NAME STEAMID IP[:PORT]\n';
    const address = words.at(-1)!;
    const id = words.at(-2)!;
    try {
      const player = game.join(words.slice(0, -2).join(' '), id, address);
      return `joined userid ${player.userid}\n`;
    } catch (err) {
      return `testkit.join: ${(err as Error).message}\n`;
    }
  });
  // testkit.leave USERID [REASON]
  on('testkit.leave', ([ref, ...reason]) => {
    const player = ref === undefined ? undefined : game.findPlayer(ref);
    if (!player) return `testkit.leave: no player ${ref ?? ''}\n`;
    game.leave(player, reason.join(' ') || 'Disconnect by user.');
    return '';
  });
  // testkit.endmap: the map's time ran out, the next map of mapcycle.txt starts (the first after the current one).
  on('testkit.endmap', () => {
    const cycle = game.mapCycle();
    if (cycle.length === 0) return 'testkit.endmap: mapcycle.txt is empty or missing\n';
    const next = cycle[(cycle.indexOf(game.map ?? '') + 1) % cycle.length];
    return game.loadMap(next) ? `next map ${next}\n` : `testkit.endmap: map ${next} not found\n`;
  });
  on('testkit.bigreply', ([count]) => {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 0 || n > MAX_BIG_REPLY) return `usage: testkit.bigreply BYTES (0 to ${MAX_BIG_REPLY})\n`;
    return bigReplyText(n);
  });
  on('testkit.log', (_words, args) => (game.log.write(args), ''));
  on('testkit.crash', () => {
    // Answer first, so the caller is not left waiting, then die the way a crash does: no clean-up.
    setTimeout(() => process.exit(3), 20);
    return '';
  });
  on('testkit.hang', () => ((game.hung = true), ''));
  on('testkit.dropclients', () => {
    // After the answer has left: the caller sees its answer, then the cut.
    setTimeout(() => game.rcon?.dropConnections(), 20);
    return '';
  });
}
