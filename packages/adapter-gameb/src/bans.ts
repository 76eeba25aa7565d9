import { isIPv4 } from 'node:net';
import type { BanEntry, BanFileEntry, ServerContext } from '@garrison/core';
import { layout } from './layout.js';
import { isSteamId, normalizeSteamId } from './identity.js';

/**
 * The game's ban lists, cfg/banned_user.cfg (`banid <minutes> <SteamID>`) and cfg/banned_ip.cfg
 * (`addip <minutes> <IPv4>`), which the game's `writeid`/`writeip` write (`banid 0.0 STEAM_0:1:1234` in
 * some versions) and server.cfg execs at start. Minutes are counted from when the line is executed:
 * 0 is permanent. The format holds no reason.
 */
const BAN_LINE = /^\s*(banid|addip)\s+(\d+(?:\.\d*)?)\s+(\S+)(?:\s+kick)?\s*(?:\/\/.*)?$/i;

export function banFilePath(ctx: ServerContext, kind: string): string {
  const paths = layout(ctx);
  return String(kind ?? '').toUpperCase() === 'IP' ? paths.bannedIp : paths.bannedUser;
}

/** `banid 0 STEAM_0:1:1234`, `banid 0.0 [U:1:2469]`, `addip 30 1.2.3.4 // note`; null for any other line. */
export function parseBanLine(line: string, readAt: Date): BanFileEntry | null {
  const match = BAN_LINE.exec(line.replace(/\r$/, ''));
  if (!match) return null;
  const [, command, minutesText, rawId] = match as unknown as [string, string, string, string];
  const ip = command.toLowerCase() === 'addip';
  const id = rawId.replace(/^"(.*)"$/, '$1');
  if (ip ? !isIPv4(id) : !isSteamId(id)) return null;
  const minutes = Number(minutesText);
  if (!Number.isFinite(minutes)) return null;
  const kind = ip ? 'IP' : 'STEAMID';
  const value = ip ? id : normalizeSteamId(id);
  // Minutes count from reading: the key holds them as written, so that the line read again later is the same ban.
  return {
    id: { kind, value },
    reason: '',
    expires_at: minutes > 0 ? new Date(readAt.getTime() + minutes * 60_000) : null,
    key: `${kind} ${value} ${minutes}`,
  };
}

/** Whole minutes from now to the ban's end, at least 1; 0 for a permanent ban. */
export function banMinutes(ban: Pick<BanEntry, 'expires_at'>, now = Date.now()): number {
  if (!ban.expires_at) return 0;
  return Math.max(1, Math.ceil((ban.expires_at.getTime() - now) / 60_000));
}

export function formatBanLine(ban: BanEntry): string {
  const minutes = banMinutes(ban);
  return ban.id.kind.toUpperCase() === 'IP' ? `addip ${minutes} ${ban.id.value}` : `banid ${minutes} ${normalizeSteamId(ban.id.value)}`;
}
