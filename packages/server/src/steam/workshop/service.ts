import { inject, injectable } from 'tsyringe';
import { Mutex } from 'async-mutex';
import { ApiError, IDLE_STATUSES, type Actor, type SteamDeclaration, type WorkshopItem as WorkshopItemView } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WorkshopItemRow } from '../../db/repositories/workshop-items.js';
import { isoNow, type Clock } from '../../jobs/clock.js';
import { AuditService } from '../../audit/service.js';
import { ServerService } from '../../servers/service.js';
import { installationOf, sharingWith } from '../../servers/installation.js';
import { ModService } from '../../mods/service.js';
import type { SteamSettings } from '../settings.js';
import { assertSteamFolder } from '../steamcmd-folder.js';
import { installItem, lowerCaseHere, removeInstalledItem, type InstallPlace, type OtherItems } from './install-item.js';
import { fetchCollectionItems, fetchItemDetails, workshopIdOf, type WorkshopItemDetails } from './web-api.js';

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

/** The kind of the job that downloads a server's Workshop items (download-executor.ts). */
export const WORKSHOP_JOB = 'steam.workshop';
/** The items one request downloads at most (a collection is any size): one job, one SteamCMD run of them all. */
const MAX_ITEMS_AT_ONCE = 500;
/** How long an item may wait for its job to be queued (the request records it first). */
const ORPHAN_GRACE_MS = 60_000;
const ORPHANED = {
  code: 'JOB_INTERRUPTED',
  message: 'the job that was to download it ended without it (cancelled, expired, or the service stopped): add it again',
};

/** The API's view of a row. */
function itemView(row: WorkshopItemRow): WorkshopItemView {
  return {
    workshop_id: row.workshop_id,
    name: row.name,
    folder: row.folder,
    status: row.status,
    time_updated: iso(row.time_updated),
    installed_at: row.installed_at,
    size_bytes: row.size_bytes,
    keys: row.keys,
    ...(row.error_code ? { error: { code: row.error_code, message: row.error_message ?? '' } } : {}),
  };
}

/** The keys an item brought: those recorded, and those an install was writing when it stopped. */
const ownKeys = (row: WorkshopItemRow) => [...new Set([...row.keys, ...row.pending_keys])];

/** What a download job is asked for, resolved: the items Steam gave, and those it would not, with why. */
export interface ResolvedItems {
  items: WorkshopItemDetails[];
  refused: { workshop_id: string; error: ApiError }[];
}

/**
 * A server's Workshop items: resolved against Steam, recorded, installed into its installation once
 * downloaded (install-item.ts), listed and removed. The download itself is a background job's (SteamCMD).
 */
@injectable()
export class WorkshopService {
  /** Per server: an install and a removal of its items never overlap (one would re-create what the other took out). */
  private readonly locks = new Map<number, Mutex>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: Pick<SteamSettings, 'steamDir' | 'steamApiUrl'>,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ModService) private readonly mods: ModService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private exclusive<T>(serverId: number, fn: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(serverId);
    if (!lock) this.locks.set(serverId, (lock = new Mutex()));
    return lock.runExclusive(fn);
  }

  /** 400 when SteamCMD cannot be given GARRISON_STEAM_DIR, where it downloads the items: before anything is queued. */
  private assertSteamDir(): void {
    assertSteamFolder('GARRISON_STEAM_DIR', this.settings.steamDir, 'set it to such a folder (or move it there) and restart the service');
  }

  /** The adapter's Steam declaration with a Workshop, or 400 NOT_SUPPORTED. */
  async steamOf(serverId: number): Promise<SteamDeclaration & { workshop_app_id: number }> {
    const steam = (await this.servers.adapterOf(serverId)).steam;
    if (!steam || steam.workshop_app_id === null) throw new ApiError('NOT_SUPPORTED', "this server's game has no Steam Workshop");
    return steam as SteamDeclaration & { workshop_app_id: number };
  }

  async list(serverId: number): Promise<WorkshopItemView[]> {
    await this.steamOf(serverId);
    await this.settleOrphans(serverId);
    return (await this.repos.workshopItems.ofServer(serverId)).map(itemView);
  }

  /** The Web API's options for this server's game. */
  apiOptions(workshopAppId: number, signal?: AbortSignal) {
    return { baseUrl: this.settings.steamApiUrl, workshopAppId, signal };
  }

  /**
   * The items a download is asked for (ids or Workshop URLs, and a collection's items), each with Steam's
   * details; those Steam does not give (unknown, hidden, another game's) with their error.
   */
  async resolve(serverId: number, request: { items?: string[]; collection?: string }, signal?: AbortSignal): Promise<ResolvedItems> {
    const steam = await this.steamOf(serverId);
    this.assertSteamDir();
    const options = this.apiOptions(steam.workshop_app_id, signal);
    const ids = (request.items ?? []).map((item, i) => workshopIdOf(item, `items[${i}]`));
    if (request.collection !== undefined)
      ids.push(...(await fetchCollectionItems(workshopIdOf(request.collection, 'collection'), options)));
    if (!ids.length) throw new ApiError('VALIDATION_ERROR', 'no Workshop item: give items, a collection, or both');
    if (new Set(ids).size > MAX_ITEMS_AT_ONCE)
      throw new ApiError(
        'VALIDATION_ERROR',
        `${new Set(ids).size} Workshop items at once: at most ${MAX_ITEMS_AT_ONCE} (split the collection)`,
      );
    const answers = await fetchItemDetails(ids, options);
    const resolved: ResolvedItems = { items: [], refused: [] };
    for (const [id, answer] of answers) {
      if (answer.ok) resolved.items.push(answer.details);
      else resolved.refused.push({ workshop_id: id, error: answer.error });
    }
    return resolved;
  }

  /** Records the resolved items as queued (a row again for one already there: its folder and keys kept), the refused as failed. */
  async queue(serverId: number, resolved: ResolvedItems): Promise<void> {
    this.assertSteamDir();
    const server = await this.servers.row(serverId);
    const now = isoNow(this.clock);
    await this.audit.inTransaction(async (trx) => {
      const existing = new Map((await this.repos.workshopItems.ofServer(serverId, trx)).map((r) => [r.workshop_id, r]));
      const base = (id: string) => {
        const old = existing.get(id);
        return {
          server_id: serverId,
          workshop_id: id,
          folder: old?.folder ?? null,
          installed_at: old?.installed_at ?? null,
          installed_time_updated: old?.installed_time_updated ?? null,
          keys: old?.keys ?? [],
          pending_keys: old?.pending_keys ?? [],
          node_id: server.node_id ?? this.nodeId,
          created_at: now,
          updated_at: now,
        };
      };
      for (const item of resolved.items) {
        const row = { ...base(item.workshop_id), name: item.title, time_updated: item.time_updated, size_bytes: item.size_bytes };
        await this.repos.workshopItems.put({ ...row, status: 'queued', error_code: null, error_message: null }, trx);
      }
      for (const { workshop_id, error } of resolved.refused) {
        const old = existing.get(workshop_id);
        const row = { ...base(workshop_id), name: old?.name ?? workshop_id, time_updated: old?.time_updated ?? null };
        await this.repos.workshopItems.put(
          { ...row, size_bytes: old?.size_bytes ?? null, status: 'failed', error_code: error.code, error_message: error.message },
          trx,
        );
      }
    });
  }

  /** The items a job downloads now. */
  async markDownloading(serverId: number, workshopIds: readonly string[]): Promise<void> {
    for (const id of workshopIds)
      await this.repos.workshopItems.update(serverId, id, { status: 'downloading', updated_at: isoNow(this.clock) });
  }

  /** An item whose download (or install) failed: its error shown in the list. */
  async markFailed(serverId: number, workshopId: string, error: { code: string; message: string }): Promise<void> {
    const change = { status: 'failed' as const, error_code: error.code, error_message: error.message.slice(0, 1000) };
    await this.repos.workshopItems.update(serverId, workshopId, { ...change, updated_at: isoNow(this.clock) });
  }

  /**
   * Items a job left queued or downloading without settling them (cancelled before it ran, expired, the
   * service killed): failed, so that they can be removed or added again. Only once no Workshop job of the
   * server is active, and a while after their last change (a request records its items, then queues its job).
   */
  private async settleOrphans(serverId: number): Promise<void> {
    const waiting = (await this.repos.workshopItems.ofServer(serverId)).filter((r) => r.status === 'queued' || r.status === 'downloading');
    if (!waiting.length || (await this.repos.backgroundJobs.activeOf(serverId, WORKSHOP_JOB)).length) return;
    const before = this.clock.now() - ORPHAN_GRACE_MS;
    for (const row of waiting.filter((r) => Date.parse(r.updated_at) < before)) await this.markFailed(serverId, row.workshop_id, ORPHANED);
  }

  /** Where this server's items go, and by which rules. */
  async place(serverId: number): Promise<InstallPlace> {
    const steam = await this.steamOf(serverId);
    const row = await this.servers.row(serverId);
    const mods = (await this.servers.adapterOf(serverId)).capabilities.mod_manager;
    return {
      steamDir: this.settings.steamDir,
      installation: installationOf(row.exe_path),
      steam,
      lowerCase: lowerCaseHere(steam),
      ...(mods?.describeMod ? { describe: (folder: string) => mods.describeMod!(folder) } : {}),
    };
  }

  /** The installed items of every server of this one's installation, this item of this server left out. */
  private async others(serverId: number, workshopId: string): Promise<OtherItems> {
    const row = await this.servers.row(serverId);
    const sharing = sharingWith(row, await this.servers.owned()).map((s) => s.id);
    const rows = (await this.repos.workshopItems.ofServers([serverId, ...sharing])).filter(
      (r) => !(r.server_id === serverId && r.workshop_id === workshopId) && r.folder !== null,
    );
    const keys = new Set(rows.flatMap((r) => [...r.keys, ...r.pending_keys]));
    return { folders: new Map(rows.map((r) => [r.folder!, r.workshop_id])), keys };
  }

  /**
   * After SteamCMD downloaded an item queued for this server: links it into the installation with its
   * keys and marks it installed at the version Steam gave when it was queued. On failure the item is
   * marked failed with the error, which is thrown on (the job reports it). What the download job calls.
   * An item removed meanwhile is not installed again (WORKSHOP_ITEM_NOT_FOUND): no folder, no key.
   */
  installDownloaded(serverId: number, workshopId: string): Promise<WorkshopItemView> {
    return this.exclusive(serverId, () => this.installNow(serverId, workshopId));
  }

  private async installNow(serverId: number, workshopId: string): Promise<WorkshopItemView> {
    const row = await this.repos.workshopItems.find(serverId, workshopId);
    if (!row) throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', `server ${serverId} has no Workshop item ${workshopId} queued`);
    try {
      const place = await this.place(serverId);
      // Keys an interrupted install wrote count as the item's: kept if this version brings them, else removed.
      const item = { workshopId, title: row.name, folder: row.folder, keys: ownKeys(row) };
      const recordKeys = async (names: string[]) => {
        const pending = [...new Set([...row.pending_keys, ...names])].sort();
        if (!(await this.repos.workshopItems.update(serverId, workshopId, { pending_keys: pending, updated_at: isoNow(this.clock) })))
          throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', `Workshop item ${workshopId} was removed from server ${serverId} meanwhile`);
      };
      const installed = await installItem(place, item, await this.others(serverId, workshopId), recordKeys);
      const now = isoNow(this.clock);
      const kept = await this.repos.workshopItems.update(serverId, workshopId, {
        ...installed,
        pending_keys: [],
        status: 'installed',
        installed_at: now,
        installed_time_updated: row.time_updated,
        error_code: null,
        error_message: null,
        updated_at: now,
      });
      if (!kept) {
        // Its row went while the files were put in (removals wait for installs here): they go too.
        await removeInstalledItem(place, { workshopId, ...installed }, await this.others(serverId, workshopId));
        throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', `Workshop item ${workshopId} was removed from server ${serverId} meanwhile`);
      }
    } catch (err) {
      if (err instanceof ApiError) await this.markFailed(serverId, workshopId, err);
      throw err;
    }
    return itemView((await this.repos.workshopItems.find(serverId, workshopId))!);
  }

  /**
   * Removes an item: its mod folder and the keys it brought; 409 MOD_IN_USE while the server runs with it
   * enabled, 409 CONFLICT while a job is downloading or installing it (its job settles it, even cancelled).
   */
  remove(serverId: number, workshopId: string, actor: Actor): Promise<WorkshopItemRow> {
    return this.exclusive(serverId, () => this.removeNow(serverId, workshopId, actor));
  }

  private async removeNow(serverId: number, workshopId: string, actor: Actor): Promise<WorkshopItemRow> {
    const place = await this.place(serverId);
    await this.settleOrphans(serverId);
    const row = await this.repos.workshopItems.find(serverId, workshopId);
    if (!row) throw new ApiError('WORKSHOP_ITEM_NOT_FOUND', `server ${serverId} has no Workshop item ${workshopId}`);
    if (row.status === 'queued' || row.status === 'downloading') {
      const why = `Workshop item ${workshopId} is ${row.status}: a job is installing it`;
      throw new ApiError('CONFLICT', `${why}; remove it once the job ended, or cancel the job (DELETE /api/jobs/{id})`);
    }
    const server = await this.servers.row(serverId);
    if (row.folder && !IDLE_STATUSES.includes(server.status)) {
      const enabled = (await this.mods.described(serverId)).some((m) => m.name === row.folder && m.enabled);
      if (enabled)
        throw new ApiError('MOD_IN_USE', `${row.folder} is enabled on the running server: stop it or take the mod out of the enabled list`);
    }
    await removeInstalledItem(place, { workshopId, folder: row.folder, keys: ownKeys(row) }, await this.others(serverId, workshopId));
    await this.audit.inTransaction(async (trx) => {
      await this.repos.workshopItems.remove(serverId, workshopId, trx);
      await this.audit.record(trx, {
        type: 'workshop_item_removed',
        actor,
        serverId,
        detail: { workshop_id: workshopId, name: row.name, folder: row.folder, keys: ownKeys(row) },
      });
    });
    return row;
  }
}
