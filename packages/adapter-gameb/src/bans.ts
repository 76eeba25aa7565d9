import { isIPv4 } from 'node:net';
import type { BanEntry, BanFileEntry, ServerContext } from '@garrison/core';
import { layout } from './layout.js';
import { isSteamId, normalizeSteamId, steamIdForms } from './identity.js';

/**
 * The game's ban lists, cfg/banned_user.cfg (`banid <minutes> <SteamID>`) and cfg/banned_ip.cfg
 * (`addip <minutes> <IPv4>`), which the game's `writeid`/`writeip` write (`banid 0.0 STEAM_0:1:1234` in
 * some versions) and server.cfg execs at start. Minutes are counted from when the line is executed:
 * 0 is permanent. The format holds no reason. Garrison writes a SteamID ban as one line of two statements,
 * `banid 0 STEAM_0:1:1234;banid 0 STEAM_1:1:1234`, one per universe form (see steamIdForms).
 */
const BAN_STATEMENT = /^\s*(banid|addip)\s+(\d+(?:\.\d*)?)\s+(\S+)(?:\s+kick)?\s*$/i;

export function banFilePath(ctx: ServerContext, kind: string): string {
  const paths = layout(ctx);
  return String(kind ?? '').toUpperCase() === 'IP' ? paths.bannedIp : paths.bannedUser;
}

interface Statement {
  kind: 'IP' | 'STEAMID';
  value: string;
  minutes: number;
}

function parseStatement(text: string): Statement | null {
  const match = BAN_STATEMENT.exec(text);
  if (!match) return null;
  const [, command, minutesText, rawId] = match as unknown as [string, string, string, string];
  const ip = command.toLowerCase() === 'addip';
  const id = rawId.replace(/^"(.*)"$/, '$1');
  if (ip ? !isIPv4(id) : !isSteamId(id)) return null;
  const minutes = Number(minutesText);
  if (!Number.isFinite(minutes)) return null;
  return { kind: ip ? 'IP' : 'STEAMID', value: ip ? id : normalizeSteamId(id), minutes };
}

/**
 * `banid 0 STEAM_0:1:1234`, `banid 0.0 [U:1:2469]`, `addip 30 1.2.3.4 // note`, or statements of one ban
 * joined by `;` (the forms of one SteamID); null for any other line.
 */
export function parseBanLine(line: string, readAt: Date): BanFileEntry | null {
  const code = line.replace(/\r$/, '').replace(/\/\/.*$/, '');
  const statements = code.split(';').filter((part) => part.trim() !== '');
  const parsed = statements.map(parseStatement);
  const first = parsed[0];
  if (!first || parsed.some((s) => !s || s.kind !== first.kind || s.value !== first.value || s.minutes !== first.minutes)) return null;
  const { kind, value, minutes } = first;
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
  if (ban.id.kind.toUpperCase() === 'IP') return `addip ${minutes} ${ban.id.value}`;
  return steamIdForms(ban.id.value)
    .map((form) => `banid ${minutes} ${form}`)
    .join(';');
}
