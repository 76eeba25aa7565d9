import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isIP } from 'node:net';
import type { FakeBan } from '../rcon/formats.js';

/**
 * bans.txt as the game's BattlEye reads and writes it. It reads the file at launch and on `loadBans`,
 * keeping the ban lines (`<GUID or IP> [<expiry>] [<reason>]`, expiry in Unix seconds or -1) and nothing
 * else. Whenever `ban`, `addBan`, `removeBan` or `writeBans` change its list, it saves the whole list
 * over the file in place (truncated, then written), from its own list: a line written to the file
 * since it last read it is gone, which is why a tool that writes the file must make it `loadBans`.
 */
export function readBans(path: string): FakeBan[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .flatMap((line): FakeBan[] => {
      const [id, second, ...rest] = line.trim().split(/\s+/);
      if (!id || (!isIP(id) && !/^[0-9a-f]+$/i.test(id))) return []; // comments, headers, anything but a ban
      const timed = second !== undefined && /^-?\d+$/.test(second);
      const seconds = timed ? Number(second) : -1;
      const reason = (timed ? rest : [second ?? '', ...rest]).join(' ').trim();
      return [{ id, kind: isIP(id) ? 'IP' : 'GUID', expiresAt: seconds > 0 ? seconds : null, reason }];
    });
}

export function writeBans(path: string, bans: FakeBan[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const lines = bans.map((b) => `${b.id} ${b.expiresAt ?? -1}${b.reason ? ` ${b.reason}` : ''}\n`);
  writeFileSync(path, lines.join(''));
}
