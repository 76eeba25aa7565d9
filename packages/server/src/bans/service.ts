import { basename } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { Mutex } from 'async-mutex';
import {
  ApiError,
  SYSTEM_ACTOR,
  type Actor,
  type AdapterDefinition,
  type Ban,
  type CreateBanRequest,
  type IdentityKind,
  type Static,
} from '@garrison/core';
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
import type { BanRow, NewBanRow, RowChange } from '../db/repositories/bans.js';
import { banFileVersion } from './ban-file.js';
import { importedBan } from './ban-file-plan.js';
import { BanFileWriter } from './ban-file-writer.js';
import { banFilesOf, type BanFile } from './ban-files.js';

type NewBan = Static<typeof CreateBanRequest>;

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/**
 * The identity kind a ban names (the game's first when none is named) and its value as the game
 * normalizes it; 400 naming what is wrong otherwise (with the fix, when the value is of another kind).
 */
function banIdentity(adapter: AdapterDefinition, kindName: string | undefined, uidIn: string): { kind: IdentityKind; value: string } {
  const kinds = adapter.identities ?? [];
  const names = kinds.map((k) => k.kind).join(' or ');
  if (!kinds.length) throw new ApiError('NOT_SUPPORTED', `game type ${adapter.identity.game_type} declares no identity a ban could name`);
  const kind = kindName === undefined ? kinds[0] : kinds.find((k) => k.kind === kindName);
  if (!kind) {
    throw new ApiError(
      'VALIDATION_ERROR',
      `field 'ban_type': ${JSON.stringify(kindName)} is not a kind of identity of ${adapter.identity.game_type}; it takes ${names}`,
    );
  }
  const uid = uidIn.trim();
  const problem = kind.problem(uid);
  if (problem) {
    // The type defaults to the first kind: a value of another sent without its type is the likely slip, and the fix is one field.
    const other = kindName === undefined ? kinds.find((k) => k !== kind && k.problem(uid) === null) : undefined;
    const hint = other ? `; this looks like ${article(other.label)} ${other.label}: send ban_type: ${JSON.stringify(other.kind)}` : '';
    throw new ApiError('VALIDATION_ERROR', `field 'player_uid': ${problem}${hint}`);
  }
  return { kind, value: kind.normalize(uid) };
}

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
    const adapter = this.adapters.get(server.game_type);
    const { kind, value } = banIdentity(adapter, input.ban_type, input.player_uid);
    const minutes = input.duration_minutes ?? 0;
    const created = new Date(this.clock.now());
    const row: Omit<BanRow, 'id'> = {
      server_id: serverId,
      guid: value,
      name: input.name ?? null,
      reason: input.reason ?? '',
      banned_by: actor.name.slice(0, 64),
      ban_type: kind.kind,
      duration_minutes: minutes,
      expires_at: minutes > 0 ? new Date(created.getTime() + minutes * 60_000).toISOString() : null,
      created_at: created.toISOString(),
      active: true,
      source: 'api',
      file_state: adapter.capabilities.ban_manager ? 'add' : 'none',
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
      await this.audit.record(trx, { serverId, type: 'ban', actor, detail, told: { address: kind.address === true } });
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

  private filesOf(row: ServerRow): BanFile[] {
    return banFilesOf(this.adapters.get(row.game_type), serverContext(row, this.settings.dataDir));
  }

  /** What identifies the current versions of the game's ban files, together. */
  private async versionOf(files: BanFile[]): Promise<string> {
    return (await Promise.all(files.map((f) => banFileVersion(f.path)))).join('|');
  }

  private async syncIfChanged(row: ServerRow): Promise<void> {
    const files = this.filesOf(row);
    if (!files.length) return;
    if (this.seen.get(row.id) !== (await this.versionOf(files))) await this.sync(row.id);
  }

  /** One pass over the server's ban file, under its lock. Never throws. */
  async sync(serverId: number): Promise<void> {
    let lock = this.locks.get(serverId);
    if (!lock) this.locks.set(serverId, (lock = new Mutex()));
    await lock.runExclusive(async () => {
      try {
        const row = await this.servers.row(serverId);
        const files = this.filesOf(row);
        if (files.length) await this.pass(row, files);
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

  /** One pass over each of the game's ban files, with the bans of the kinds each holds; recorded in one transaction. */
  private async pass(row: ServerRow, files: BanFile[]): Promise<void> {
    // Noted before the read: a write landing during the pass leaves the file newer than this, so seen next time.
    const version = await this.versionOf(files);
    const rows = await this.repos.bans.fileRows(row.id);
    const now = new Date(this.clock.now());
    const remote = this.adapters.get(row.game_type).capabilities.remote_admin;
    const changes: RowChange[] = [];
    const imports: NewBanRow[] = [];
    let vanished = 0;
    let settledAll = true;
    for (const file of files) {
      const own = rows.filter((r) => file.kinds.has(r.ban_type));
      const { plan, stood, settled } = await this.fileWriter.write(row, remote, file, own, now);
      // A change the game kept undoing stays marked to be made, for the next pass.
      const pending = new Set(own.filter((r) => r.file_state === 'add' || r.file_state === 'remove').map((r) => r.id));
      changes.push(...(stood ? plan.changes : plan.changes.filter((c) => !pending.has(c.id))));
      imports.push(...plan.imports.map((found) => importedBan(row.id, found, now, basename(file.path).slice(0, 64))));
      vanished += plan.vanished.length;
      settledAll &&= settled;
    }
    await this.audit.inTransaction(async (trx) => {
      await this.repos.bans.applyPass(row.id, changes, imports, trx);
      if (imports.length || vanished) {
        await this.audit.record(trx, {
          serverId: row.id,
          type: 'ban_file_changed',
          actor: SYSTEM_ACTOR,
          detail: { imported: imports.length, removed_outside: vanished },
        });
      }
    });
    // A file read while it was still being written is looked at again at the next chance.
    if (settledAll) this.seen.set(row.id, version);
    else this.seen.delete(row.id);
  }
}
