import type { SteamId } from './steamid.js';

export interface Player {
  userid: number;
  name: string;
  steamId: SteamId;
  /** `ip:port`. */
  address: string;
  ip: string;
  joinedAt: number;
  ping: number;
  loss: number;
}

/** `"Name<userid><STEAM_0:Y:Z><team>"`, how srcds names a player in its log. */
export const logName = (p: Player, team = '') => `"${p.name}<${p.userid}><${p.steamId.text}><${team}>"`;

function connectedFor(ms: number): string {
  const s = Math.floor(ms / 1000);
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

export interface StatusInfo {
  hostname: string;
  version: string;
  ip: string;
  port: number;
  map: string | null;
  maxPlayers: number;
  players: Player[];
}

/**
 * `status` as the Source engine prints it: the header lines, then the table, one row per player:
 * `#      2 "Player One"        STEAM_0:1:1234      05:12       67    0 active 1.2.3.4:27005`.
 */
export function statusText(info: StatusInfo): string {
  const rows = info.players.map(
    (p) =>
      `# ${String(p.userid).padStart(6)} ${`"${p.name}"`.padEnd(19)} ${p.steamId.text.padEnd(19)} ` +
      `${connectedFor(Date.now() - p.joinedAt).padStart(9)} ${String(p.ping).padStart(4)} ` +
      `${String(p.loss).padStart(4)} active ${p.address}`,
  );
  return [
    `hostname: ${info.hostname}`,
    `version : ${info.version} secure`,
    `udp/ip  : ${info.ip}:${info.port}`,
    `os      :  Linux`,
    `type    :  community dedicated`,
    `map     : ${info.map ?? ''}`,
    `players : ${info.players.length} humans, 0 bots (${info.maxPlayers} max)`,
    '',
    '# userid name                uniqueid            connected ping loss state  adr',
    ...rows,
    '',
  ].join('\n');
}
