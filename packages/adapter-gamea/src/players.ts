import type { LivePlayer } from '@garrison/core';

// `0   127.0.0.1:2304        63   <guid>(OK) Name`; while joining the GUID is `-` and the ping -1.
const ROW = /^(\d+)\s+(\S+:\d+)\s+(-?\d+)\s+(?:([0-9a-f]{32})\((?:OK|\?)\)|-)\s+(.+?)\s*$/i;

/** Reads the answer of BattlEye's `players` command. */
export function parsePlayers(answer: string): LivePlayer[] {
  const players: LivePlayer[] = [];
  for (const line of answer.split(/\r?\n/)) {
    const match = ROW.exec(line);
    if (!match) continue;
    const [, slot, , ping, guid, name] = match;
    players.push({ slot_id: slot!, name: name!.replace(/ \(Lobby\)$/, ''), ping: Number(ping), guid: guid ?? null });
  }
  return players;
}
