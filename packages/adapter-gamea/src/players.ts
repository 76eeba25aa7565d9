import type { LivePlayer, PlayerEvent, RunCommand } from '@garrison/core';

// `0   127.0.0.1:2304        63   <guid>(OK) Name`; while joining the GUID is `-` and the ping -1.
const ROW = /^(\d+)\s+(\S+:\d+)\s+(-?\d+)\s+(?:([0-9a-f]{32})\((?:OK|\?)\)|-)\s+(.+?)\s*$/i;

/** Reads the answer of BattlEye's `players` command. */
export function parsePlayers(answer: string): LivePlayer[] {
  const players: LivePlayer[] = [];
  for (const line of answer.split(/\r?\n/)) {
    const match = ROW.exec(line);
    if (!match) continue;
    const [, slot, address, ping, guid, name] = match;
    // `1.2.3.4:2304`, or `[::1]:2304` for IPv6: the address is all before the last colon.
    const ip = address.slice(0, address.lastIndexOf(':')).replace(/^\[(.*)\]$/, '$1');
    const id = guid ? { kind: 'GUID', value: guid.toLowerCase() } : null;
    players.push({ slot_id: slot, name: name.replace(/ \(Lobby\)$/, ''), ping: Number(ping), id, ip });
  }
  return players;
}

const JOINED = /^Player #(\d+) (.+) \([^()]*:\d+\) connected$/;
const GUID = /^Player #(\d+) (.+) - BE GUID: ([0-9a-f]{32})$/i;
const LEFT = /^Player #(\d+) (.+) disconnected$/;

/** BattlEye's server messages about players: `Player #3 Name (ip:port) connected`, `… - BE GUID: …`, `… disconnected`. */
export function parsePlayerEvent(message: string): PlayerEvent | null {
  let m = JOINED.exec(message);
  if (m) return { kind: 'joined', slot_id: m[1], name: m[2] };
  m = GUID.exec(message);
  if (m) return { kind: 'identified', slot_id: m[1], name: m[2], id: { kind: 'GUID', value: m[3].toLowerCase() } };
  m = LEFT.exec(message);
  if (m) return { kind: 'left', slot_id: m[1], name: m[2] };
  return null;
}

/** BattlEye's kick: `kick <slot> <reason>` (the reason on one line). */
export const kickCommand = (slotId: string, reason: string) => `kick ${slotId} ${reason.replace(/[\r\n]+/g, ' ').trim()}`.trim();

/** The players on now: BattlEye's `players` command, read. */
export const listPlayers = async (run: RunCommand): Promise<LivePlayer[]> => parsePlayers(await run('players'));
