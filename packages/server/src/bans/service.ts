import { isIP } from 'node:net';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { Mutex } from 'async-mutex';
import { ApiError, SYSTEM_ACTOR, type Actor, type Ban, type BanManager, type CreateBanRequest, type Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { BanSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import type { Clock } from '../jobs/clock.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { serverContext } from '../servers/context.js';
import { AuditService } from '../audit/service.js';
import type { BanRow } from '../db/repositories/bans.js';
import { banFileVersion } from './ban-file.js';
import { importedBan } from './ban-file-plan.js';
import { BanFileWriter } from './ban-file-writer.js';

type NewBan = Static<typeof CreateBanRequest>;

const GUID = /^[0-9a-f]{32}$/i;

const toBan = (r: BanRow): Ban => ({
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
  source: r.source,
});

/**
 * Bans in the database, and the game's ban file kept in step with them. The file is shared with the
 * game and with other tools and people, so it is never rewritten from the database: every pass reads it,
 * adds and removes the lines of Garrison's own changes, imports the bans others wrote, and keeps every
 * other line as it was (ban-file-plan.ts). A pass runs at every ban change, before a game starts, when a
 * list is read and the file changed, and periodically (timed bans expire there); ban-file-writer.ts writes
 * the change and has a running game reload it. A failed pass is logged; the bans stand in the database
 * and the next pass tries again.
 */
@injectable()
export class BanService implements Lifecycle {
  private readonly locks = new Map<number, Mutex>();
  /** The ban file's version at each server's last pass, to skip passes when nothing changed. */
  private readonly seen = new Map<number, string>();
  private job: Job | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: BanSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(BanFileWriter) private readonly fileWriter: BanFileWriter,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** The periodic pass (the first one at once reads every server's ban file), and a pass at each server's creation. */
  start(): void {
    this.unsubscribe = this.events.subscribe((event) => {
      if (event.type === 'audit' && event.data.event_type === 'server_created') void this.sync(event.server_id);
    });
    this.job = this.jobs.every({ name: 'bans.pass', everyMs: this.settings.banExpiryCheckMs, run: () => this.passAll() });
  }

  stop(): void {
    this.unsubscribe?.();
    this.job?.cancel();
  }

  async list(serverId: number, query: { limit?: number; offset?: number; active_only?: boolean }): Promise<Ban[]> {
    const row = await this.servers.row(serverId);
    await this.syncIfChanged(row);
    const rows = await this.repos.bans.list(
      serverId,
      { limit: query.limit ?? 50, offset: query.offset ?? 0, inForceOnly: query.active_only ?? true },
      new Date(this.clock.now()),
    );
    return rows.map(toBan);
  }

  async create(
    serverId: number,
    input: NewBan & { name?: string | null },
    actor: Actor,
    audit: Record<string, unknown> = {},
  ): Promise<Ban> {
    const server = await this.servers.row(serverId);
    const banType = input.ban_type ?? 'GUID';
    const uid = input.player_uid.trim();
    if (banType === 'GUID' && !GUID.test(uid)) {
      // The type defaults to GUID: an address sent without it is the likely slip, and the fix is one field.
      const hint = input.ban_type === undefined && isIP(uid) ? '; this looks like an IP address: send ban_type: "IP"' : '';
      throw new ApiError('VALIDATION_ERROR', `field 'player_uid': a GUID ban needs a 32-character hexadecimal GUID${hint}`);
    }
    if (banType === 'IP' && !isIP(uid))
      throw new ApiError('VALIDATION_ERROR', "field 'player_uid': an IP ban needs an IPv4 or IPv6 address");
    const minutes = input.duration_minutes ?? 0;
    const created = new Date(this.clock.now());
    const row: Omit<BanRow, 'id'> = {
      server_id: serverId,
      guid: banType === 'GUID' ? uid.toLowerCase() : uid,
      name: input.name ?? null,
      reason: input.reason ?? '',
      banned_by: actor.name.slice(0, 64),
      ban_type: banType,
      duration_minutes: minutes,
      expires_at: minutes > 0 ? new Date(created.getTime() + minutes * 60_000).toISOString() : null,
      created_at: created.toISOString(),
      active: true,
      source: 'api',
      file_state: this.managerOf(server) ? 'add' : 'none',
      file_line: null,
    };
    const id = await this.audit.inTransaction(async (trx) => {
      const made = await this.repos.bans.insert(row, trx);
      const detail = {
        ban_id: made,
        guid: row.guid,
        ban_type: row.ban_type,
        duration_minutes: minutes,
        reason: row.reason || null,
        ...audit,
      };
      await this.audit.record(trx, { serverId, type: 'ban', actor, detail });
      return made;
    });
    await this.sync(serverId);
    return toBan({ ...row, id });
  }

  async revoke(serverId: number, banId: number, actor: Actor): Promise<void> {
    if (!(await this.repos.bans.find(serverId, banId))) throw new ApiError('NOT_FOUND', `server ${serverId} has no ban ${banId}`);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.bans.revoke(banId, trx);
      await this.audit.record(trx, { serverId, type: 'unban', actor, detail: { ban_id: banId } });
    });
    await this.sync(serverId);
  }

  /** Before a game starts: its ban file holds every ban in force when the game reads it. */
  async beforeLaunch(serverId: number): Promise<void> {
    await this.sync(serverId);
  }

  /** The periodic pass: every server whose file changed since its last pass, or that has lines to move. */
  async passAll(): Promise<void> {
    const pending = new Set(await this.repos.bans.serversWithPendingLines(new Date(this.clock.now())));
    for (const row of await this.servers.owned()) {
      if (pending.has(row.id)) await this.sync(row.id);
      else await this.syncIfChanged(row);
    }
  }

  private managerOf(row: ServerRow): BanManager | undefined {
    return this.adapters.get(row.game_type).capabilities.ban_manager;
  }

  private async syncIfChanged(row: ServerRow): Promise<void> {
    const manager = this.managerOf(row);
    if (!manager) return;
    const version = await banFileVersion(manager.banFilePath(serverContext(row, this.settings.dataDir)));
    if (this.seen.get(row.id) !== version) await this.sync(row.id);
  }

  /** One pass over the server's ban file, under its lock. Never throws. */
  async sync(serverId: number): Promise<void> {
    let lock = this.locks.get(serverId);
    if (!lock) this.locks.set(serverId, (lock = new Mutex()));
    await lock.runExclusive(async () => {
      try {
        const row = await this.servers.row(serverId);
        const manager = this.managerOf(row);
        if (manager) await this.pass(row, manager);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'NOT_FOUND') {
          this.seen.delete(serverId); // deleted meanwhile
          return;
        }
        this.logger.warn(
          { serverId, err: (err as Error).message },
          'ban file pass failed; the bans stand in the database and the next pass tries again',
        );
      }
    });
  }

  private async pass(row: ServerRow, manager: BanManager): Promise<void> {
    const path = manager.banFilePath(serverContext(row, this.settings.dataDir));
    // Noted before the read: a write landing during the pass leaves the file newer than this, so seen next time.
    const version = await banFileVersion(path);
    const rows = await this.repos.bans.fileRows(row.id);
    const now = new Date(this.clock.now());
    const { plan, stood, settled } = await this.fileWriter.write(row, manager, path, rows, now);
    // A change the game kept undoing stays marked to be made, for the next pass.
    const pending = new Set(rows.filter((r) => r.file_state === 'add' || r.file_state === 'remove').map((r) => r.id));
    const changes = stood ? plan.changes : plan.changes.filter((c) => !pending.has(c.id));
    await this.audit.inTransaction(async (trx) => {
      await this.repos.bans.applyPass(
        row.id,
        changes,
        plan.imports.map((found) => importedBan(row.id, found, now)),
        trx,
      );
      if (plan.imports.length || plan.vanished.length) {
        await this.audit.record(trx, {
          serverId: row.id,
          type: 'ban_file_changed',
          actor: SYSTEM_ACTOR,
          detail: { imported: plan.imports.length, removed_outside: plan.vanished.length },
        });
      }
    });
    // A file read while it was still being written is looked at again at the next chance.
    if (settled) this.seen.set(row.id, version);
    else this.seen.delete(row.id);
  }
}
