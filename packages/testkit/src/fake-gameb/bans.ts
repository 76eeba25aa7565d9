import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SteamId } from './steamid.js';

export interface Ban {
  /** `universe:account` for an ID ban (the engine compares both), the address for an IP ban. */
  key: string;
  /** What `listid`/`listip` and the ban files show: `STEAM_X:Y:Z` or the address. */
  shown: string;
  /** Unix milliseconds, or null for a permanent ban. */
  expiresAt: number | null;
}

/**
 * The game's two ban lists, in memory as srcds keeps them: `banid`/`addip` add, `removeid`/`removeip`
 * drop, and nothing reaches the files until `writeid`/`writeip`, which rewrite them whole from the
 * permanent bans (a timed ban is never written; a line the file had that the game did not load is gone).
 */
export class BanLists {
  private readonly ids = new Map<string, Ban>();
  private readonly ips = new Map<string, Ban>();

  private static expiry(minutes: number): number | null {
    return minutes > 0 ? Date.now() + minutes * 60_000 : null;
  }

  private prune(): void {
    const now = Date.now();
    for (const list of [this.ids, this.ips])
      for (const [key, ban] of list) if (ban.expiresAt !== null && ban.expiresAt <= now) list.delete(key);
  }

  private static idKey(id: SteamId): string {
    return `${id.universe}:${id.account}`;
  }

  banId(id: SteamId, minutes: number): Ban {
    const ban = { key: BanLists.idKey(id), shown: id.text, expiresAt: BanLists.expiry(minutes) };
    this.ids.set(ban.key, ban);
    return ban;
  }

  banIp(ip: string, minutes: number): Ban {
    const ban = { key: ip, shown: ip, expiresAt: BanLists.expiry(minutes) };
    this.ips.set(ip, ban);
    return ban;
  }

  removeId(id: SteamId): boolean {
    return this.ids.delete(BanLists.idKey(id));
  }

  removeIp(ip: string): boolean {
    return this.ips.delete(ip);
  }

  idBanned(id: SteamId): boolean {
    this.prune();
    return this.ids.has(BanLists.idKey(id));
  }

  ipBanned(ip: string): boolean {
    this.prune();
    return this.ips.has(ip);
  }

  listId(): string {
    this.prune();
    return BanLists.listing('ID', [...this.ids.values()]);
  }

  listIp(): string {
    this.prune();
    return BanLists.listing('IP', [...this.ips.values()]);
  }

  private static listing(kind: string, bans: Ban[]): string {
    if (bans.length === 0) return `${kind} filter list: empty\n`;
    const rows = bans.map((b, i) => {
      const left = b.expiresAt === null ? 'permanent' : `${((b.expiresAt - Date.now()) / 60_000).toFixed(3)} min`;
      return `${i + 1} ${b.shown} : ${left}\n`;
    });
    return `${kind} filter list: ${bans.length} entr${bans.length === 1 ? 'y' : 'ies'}\n${rows.join('')}`;
  }

  /** `cfg/banned_user.cfg` as `writeid` leaves it: one `banid 0 STEAM_X:Y:Z` line per permanent ban. */
  writeIds(path: string): void {
    writeWhole(
      path,
      [...this.ids.values()].filter((b) => b.expiresAt === null).map((b) => `banid 0 ${b.shown}\n`),
    );
  }

  /** `cfg/banned_ip.cfg` as `writeip` leaves it: one `addip 0 <address>` line per permanent ban. */
  writeIps(path: string): void {
    writeWhole(
      path,
      [...this.ips.values()].filter((b) => b.expiresAt === null).map((b) => `addip 0 ${b.shown}\n`),
    );
  }
}

function writeWhole(path: string, lines: string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, lines.join(''));
  renameSync(temp, path);
}
