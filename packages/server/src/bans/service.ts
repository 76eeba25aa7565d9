import { isIP } from 'node:net';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import writeFileAtomic from 'write-file-atomic';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ApiError, type Static, type Ban, type CreateBanRequest } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Models } from '../db/models/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { serverContext } from '../servers/context.js';
import { RemoteAdminService } from '../rcon/service.js';

type BanRecord = Static<typeof Ban>;
type NewBan = Static<typeof CreateBanRequest>;

const GUID = /^[0-9a-f]{32}$/i;

/** A stored ban: the record as the API shows it, and whether it is still in force (SQLite stores booleans as 0/1). */
type BanRow = BanRecord & { active: boolean | number };

const toBan = (r: BanRow): BanRecord => ({
  id: r.id,
  server_id: r.server_id,
  guid: r.guid,
  name: r.name,
  reason: r.reason,
  banned_by: r.banned_by,
  ban_type: r.ban_type,
  duration_minutes: r.duration_minutes,
  expires_at: r.expires_at,
  created_at: r.created_at,
});

/**
 * Bans in the database, and the game's ban file kept to match: rewritten on every change (creation,
 * revocation, expiry) and reloaded by a running game. A failed file sync is logged; the ban stands.
 */
@injectable()
export class BanService {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
  ) {}

  private get table() {
    return this.models.Server.knex()('bans');
  }

  /** Starts expiring timed bans. */
  start(): void {
    this.timer ??= setInterval(() => void this.expire().catch((err) => this.logger.warn({ err: (err as Error).message }, 'ban expiry failed')), this.settings.banExpiryCheckMs);
    void this.expire().catch(() => {});
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async list(serverId: number, query: { limit?: number; offset?: number; active_only?: boolean }): Promise<BanRecord[]> {
    await this.servers.row(serverId);
    const rows = this.table.clone().where('server_id', serverId);
    if (query.active_only ?? true) this.whereActive(rows);
    return ((await rows.orderBy('id').limit(query.limit ?? 50).offset(query.offset ?? 0)) as BanRow[]).map(toBan);
  }

  async create(serverId: number, input: NewBan & { name?: string | null }, bannedBy: string): Promise<BanRecord> {
    await this.servers.row(serverId);
    const banType = input.ban_type ?? 'GUID';
    const uid = input.player_uid.trim();
    if (banType === 'GUID' && !GUID.test(uid)) throw new ApiError('VALIDATION_ERROR', "field 'player_uid': a GUID ban needs a 32-character hexadecimal GUID");
    if (banType === 'IP' && !isIP(uid)) throw new ApiError('VALIDATION_ERROR', "field 'player_uid': an IP ban needs an IPv4 or IPv6 address");
    const minutes = input.duration_minutes ?? 0;
    const created = new Date();
    const row = {
      server_id: serverId,
      guid: banType === 'GUID' ? uid.toLowerCase() : uid,
      name: input.name ?? null,
      reason: input.reason ?? '',
      banned_by: bannedBy,
      ban_type: banType,
      duration_minutes: minutes,
      expires_at: minutes > 0 ? new Date(created.getTime() + minutes * 60_000).toISOString() : null,
      created_at: created.toISOString(),
      active: true,
    };
    const [id] = await this.table.clone().insert(row);
    await this.sync(serverId);
    return toBan({ ...row, id: Number(id) } as BanRow);
  }

  async revoke(serverId: number, banId: number): Promise<void> {
    const ban = await this.table.clone().where({ id: banId, server_id: serverId }).first('id');
    if (!ban) throw new ApiError('NOT_FOUND', `server ${serverId} has no ban ${banId}`);
    await this.table.clone().where({ id: banId }).update({ active: false });
    await this.sync(serverId);
  }

  private whereActive<Q extends { where: (...a: any[]) => Q; andWhere: (...a: any[]) => Q }>(query: Q): Q {
    const nowIso = new Date().toISOString();
    return query.where('active', true).andWhere((q: any) => q.whereNull('expires_at').orWhere('expires_at', '>', nowIso));
  }

  /** Deactivates timed bans past `expires_at` and syncs the servers they belonged to. */
  async expire(): Promise<void> {
    const nowIso = new Date().toISOString();
    const due = await this.table.clone().where('active', true).whereNotNull('expires_at').andWhere('expires_at', '<=', nowIso).select('id', 'server_id');
    if (!due.length) return;
    await this.table.clone().whereIn('id', due.map((d) => d.id)).update({ active: false });
    for (const serverId of new Set(due.map((d) => Number(d.server_id)))) await this.sync(serverId);
  }

  /** Writes the game's ban file from the active bans, and has a running game reload it. Never throws. */
  async sync(serverId: number): Promise<void> {
    try {
      const row = await this.servers.row(serverId);
      const manager = this.adapters.get(row.game_type).capabilities.ban_manager;
      if (!manager) return;
      const bans = (await this.whereActive(this.table.clone().where('server_id', serverId)).orderBy('id')) as BanRow[];
      const path = manager.banFilePath(serverContext(row, this.settings.dataDir));
      await mkdir(dirname(path), { recursive: true });
      const content = manager.renderBanFile(bans.map((b) => ({ guid: b.guid, reason: b.reason, expires_at: b.expires_at ? new Date(b.expires_at) : null })));
      await writeFileAtomic(path, content, { mode: 0o600 });
      if (manager.reloadCommand && ['starting', 'running'].includes(row.status)) await this.remoteAdmin.command(serverId, manager.reloadCommand);
    } catch (err) {
      this.logger.warn({ serverId, err: (err as Error).message }, 'ban file sync failed; the bans stand in the database');
    }
  }
}
