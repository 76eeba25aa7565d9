import { isIP } from 'node:net';
import type { BanEntry, BanFileEntry } from '@garrison/core';

/**
 * BattlEye's bans.txt: `<GUID or IP> [<expiry>] [<reason…>]`, one ban per line, bans of both kinds in one file.
 *
 * What an expiry means (BattlEye writes absolute Unix seconds, and -1 for permanent; other tools and
 * people write other forms, so each is read as what it most plausibly says):
 * - absent, `-1`, any negative number or `0`: permanent;
 * - from 1,000,000,000 on (2001-09-09): Unix seconds, the moment the ban ends;
 * - a smaller positive number: minutes, counted from the moment the line was first read.
 */
const UNIX_SECONDS_FROM = 1_000_000_000;

/** A BattlEye GUID is 32 hex digits; shorter and longer ones occur in real files (typos, other id kinds). */
const GUID_LIKE = /^[0-9A-Fa-f]{8,128}$/;
const IPV4_WILDCARD = /^\d{1,3}(?:\.(?:\d{1,3}|\*)){3}$/;
const COMMENT = /^(?:\/\/|#|;)/;
const LINE = /^(\S+)(?:\s+(-?\d+)(?=\s|$))?\s*(.*)$/;

function expiryOf(token: string | undefined, readAt: Date): Date | null {
  if (token === undefined) return null;
  const n = Number(token);
  if (!Number.isSafeInteger(n) || n <= 0) return null;
  if (n >= UNIX_SECONDS_FROM) return new Date(n * 1000);
  return new Date(readAt.getTime() + n * 60_000);
}

const flatten = (reason: string) => reason.replace(/[\r\n]+/g, ' ').trim();
const normalise = (reason: string) => reason.replace(/\s+/g, ' ').trim();

export function parseBanLine(line: string, readAt: Date): BanFileEntry | null {
  const text = line.trim();
  if (!text || COMMENT.test(text)) return null;
  const match = LINE.exec(text);
  if (!match) return null;
  const [, uid, expiry, rest] = match as unknown as [string, string, string | undefined, string];
  const ip = isIP(uid) !== 0 || IPV4_WILDCARD.test(uid);
  if (!ip && !GUID_LIKE.test(uid)) return null;
  const reason = rest.trim();
  return {
    id: ip ? { kind: 'IP', value: uid } : { kind: 'GUID', value: uid.toLowerCase() },
    reason,
    expires_at: expiryOf(expiry, readAt),
    key: `${uid.toLowerCase()} ${expiry ?? ''} ${normalise(reason)}`,
  };
}

export function formatBanLine(ban: BanEntry): string {
  const expiry = ban.expires_at ? Math.floor(ban.expires_at.getTime() / 1000) : -1;
  const reason = flatten(ban.reason);
  return `${ban.id.value} ${expiry}${reason ? ` ${reason}` : ''}`;
}
