import { inject, injectable } from 'tsyringe';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import { steamFolderProblem } from '../steamcmd-folder.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WorkshopItemRow } from '../../db/repositories/workshop-items.js';
import { isoNow, type Clock } from '../../jobs/clock.js';
import { INTERRUPTED } from '../../background-jobs/service.js';
import { JobFailure, type JobContext, type JobExecutor } from '../../background-jobs/executors.js';
import { SteamCmdService } from '../steamcmd-service.js';
import type { SteamSettings } from '../settings.js';
import { WorkshopService } from './service.js';
import { WorkshopUpdateCheck } from './update-check.js';

interface ItemFailure {
  workshopId: string;
  code: string;
  message: string;
}

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * The `steam.workshop` job: every item of the job in one SteamCMD run (one login; the runner retries the
 * items that timed out), each item downloaded then installed into the server's installation. An item
 * that fails is marked failed with its own error and the others go on; the job then fails with the first
 * failure's code, naming every failed item (docs/workshop.md). A new version of an installed item is told
 * to webhooks (`workshop.updated`, stage `installed`).
 */
@injectable()
export class WorkshopDownloadExecutor implements JobExecutor {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: Pick<SteamSettings, 'steamDir'>,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(WorkshopService) private readonly workshop: WorkshopService,
    @inject(WorkshopUpdateCheck) private readonly check: WorkshopUpdateCheck,
    @inject(SteamCmdService) private readonly steamcmd: SteamCmdService,
  ) {}

  async execute(ctx: JobContext): Promise<void> {
    const serverId = ctx.serverId;
    if (serverId === null) throw new JobFailure('NOT_FOUND', 'a Workshop job names its server');
    const ids = idsOf(ctx.payload.workshop_ids);
    const steam = await this.workshop.steamOf(serverId);
    const before = new Map((await this.repos.workshopItems.ofServer(serverId)).map((r) => [r.workshop_id, r]));
    const failures: ItemFailure[] = [];
    const updated: WorkshopItemRow[] = [];
    if (ids.length) {
      // Checked at the request too; again here, as the setting may have changed with a restart since.
      const folderProblem = steamFolderProblem(this.settings.steamDir);
      if (folderProblem) throw new JobFailure('VALIDATION_ERROR', `GARRISON_STEAM_DIR: ${folderProblem}`);
      await this.workshop.markDownloading(serverId, ids);
      ctx.log(`Garrison: downloading Workshop item ${ids.join(', ')} into ${this.settings.steamDir}`);
      const settled = new Set<string>();
      try {
        const work = { kind: 'workshop', appId: String(steam.workshop_app_id), items: ids } as const;
        // A Workshop item needs an account that owns the game: never Steam's anonymous login.
        const ran = await this.steamcmd.run({ installDir: this.settings.steamDir, work }, ctx, { anonymousAllowed: false });
        for (const result of ran.items) {
          if (ctx.signal.aborted) break;
          settled.add(result.itemId);
          if (result.status === 'failed') {
            await this.workshop.markFailed(serverId, result.itemId, result.error);
            failures.push({ workshopId: result.itemId, code: result.error.code, message: result.error.message });
            continue;
          }
          try {
            const item = await this.workshop.installDownloaded(serverId, result.itemId);
            ctx.log(`Garrison: Workshop item ${result.itemId} installed as ${item.folder}`);
            const old = before.get(result.itemId);
            // A new version of an installed item: not the same version downloaded again.
            if (old?.installed_at && (old.time_updated ?? 0) > (old.installed_time_updated ?? 0)) updated.push(old);
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            // Removed while the job ran (DELETE waited for its turn): nothing of it is put back, and nothing failed.
            if (err.code === 'WORKSHOP_ITEM_NOT_FOUND') {
              ctx.log(`Garrison: Workshop item ${result.itemId} was removed while it downloaded: not installed`);
              continue;
            }
            failures.push({ workshopId: result.itemId, code: err.code, message: err.message });
          }
        }
      } catch (err) {
        await this.leave(
          serverId,
          ids.filter((id) => !settled.has(id)),
          before,
          err,
          ctx.signal,
        );
        throw err;
      }
      if (ctx.signal.aborted)
        await this.leave(
          serverId,
          ids.filter((id) => !settled.has(id)),
          before,
          null,
          ctx.signal,
        );
    }
    if (updated.length) await this.check.tell(new Map([[serverId, updated]]), 'installed');
    for (const id of idsOf(ctx.payload.refused)) {
      const row = await this.repos.workshopItems.find(serverId, id);
      failures.push({ workshopId: id, code: row?.error_code ?? 'WORKSHOP_ITEM_NOT_FOUND', message: row?.error_message ?? '' });
    }
    if (failures.length) throw jobFailure(failures, ids.length + idsOf(ctx.payload.refused).length);
  }

  /**
   * The items a job leaves unsettled (cancelled, interrupted, or the whole run failed): one installed before
   * goes back to what it was (its files are untouched), another is marked failed with the job's reason.
   */
  private async leave(
    serverId: number,
    ids: string[],
    before: Map<string, WorkshopItemRow>,
    err: unknown,
    signal: AbortSignal,
  ): Promise<void> {
    const stopped = signal.reason instanceof Error && signal.reason.message === INTERRUPTED.message;
    const error = signal.aborted
      ? stopped
        ? INTERRUPTED
        : { code: 'JOB_CANCELLED', message: 'the download was cancelled' }
      : err instanceof JobFailure || err instanceof ApiError
        ? { code: err.code, message: err.message }
        : { code: 'JOB_FAILED', message: 'the download job failed' };
    for (const id of ids) {
      const old = before.get(id);
      if (old?.installed_at && signal.aborted) {
        const status = (old.time_updated ?? 0) > (old.installed_time_updated ?? 0) ? 'outdated' : 'installed';
        await this.repos.workshopItems.update(serverId, id, {
          status,
          error_code: null,
          error_message: null,
          updated_at: isoNow(this.clock),
        });
      } else {
        await this.workshop.markFailed(serverId, id, error);
      }
    }
  }
}

/** The job's failure: the first failed item's code, every failed item named (each keeps its own error in the list). */
function jobFailure(failures: ItemFailure[], total: number): JobFailure {
  const installed = total - failures.length;
  const each = failures.map((f) => `${f.workshopId} (${f.code}: ${f.message})`).join('; ');
  const rest = installed > 0 ? `; the ${installed} other${installed === 1 ? ' is' : 's are'} installed` : '';
  return new JobFailure(failures[0].code, `${failures.length} of ${total} Workshop items failed: ${each}${rest}`.slice(0, 1000));
}
