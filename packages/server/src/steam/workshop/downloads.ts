import { inject, injectable } from 'tsyringe';
import { ApiError, type Actor, type WorkshopAddRequest } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Repositories } from '../../db/repositories/index.js';
import { BackgroundJobService } from '../../background-jobs/service.js';
import { accountRequired } from '../steamcmd-service.js';
import { WORKSHOP_JOB, WorkshopService } from './service.js';
import { workshopIdOf } from './web-api.js';

/** What a `steam.workshop` job is given: the items SteamCMD downloads, and those Steam refused when they were asked for. */
export interface WorkshopJobPayload {
  workshop_ids: string[];
  refused: string[];
}

/**
 * Asking for Workshop downloads: the items resolved against Steam and recorded (queued, or failed when
 * Steam refuses them), then one `steam.workshop` job for the server (download-executor.ts). Workshop items
 * need a Steam account that owns the game: without one, nothing is queued.
 */
@injectable()
export class WorkshopDownloads {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(WorkshopService) private readonly workshop: WorkshopService,
    @inject(BackgroundJobService) private readonly jobs: BackgroundJobService,
  ) {}

  /** POST /servers/{id}/workshop. */
  async add(serverId: number, body: WorkshopAddRequest, actor: Actor): Promise<{ job_id: number }> {
    await this.workshop.steamOf(serverId);
    // What the admin typed is checked before Steam is asked anything, and before the account.
    (body.items ?? []).forEach((item, i) => workshopIdOf(item, `items[${i}]`));
    if (body.collection !== undefined) workshopIdOf(body.collection, 'collection');
    if (!body.items?.length && body.collection === undefined)
      throw new ApiError('VALIDATION_ERROR', 'no Workshop item: give items (ids or Workshop URLs), a collection, or both');
    await this.assertAccount();
    const resolved = await this.workshop.resolve(serverId, body);
    const ids = [...new Set(resolved.items.map((i) => i.workshop_id))];
    const refused = [...new Set(resolved.refused.map((r) => r.workshop_id))].filter((id) => !ids.includes(id));
    await this.workshop.queue(serverId, {
      items: ids.map((id) => resolved.items.find((i) => i.workshop_id === id)!),
      refused: refused.map((id) => resolved.refused.find((r) => r.workshop_id === id)!),
    });
    return this.enqueue(serverId, { workshop_ids: ids, refused }, actor);
  }

  /**
   * POST /servers/{id}/workshop/update: exactly the items the update check marked outdated, downloaded
   * again at the version it saw (no new question to Steam); none: an empty list, and no job.
   */
  async update(serverId: number, actor: Actor): Promise<{ job_id: number } | []> {
    await this.workshop.steamOf(serverId);
    const outdated = (await this.repos.workshopItems.ofServer(serverId)).filter((r) => r.status === 'outdated');
    if (!outdated.length) return [];
    await this.assertAccount();
    const items = outdated.map((r) => ({
      workshop_id: r.workshop_id,
      title: r.name,
      time_updated: r.time_updated ?? 0,
      size_bytes: r.size_bytes,
    }));
    await this.workshop.queue(serverId, { items, refused: [] });
    return this.enqueue(serverId, { workshop_ids: items.map((i) => i.workshop_id), refused: [] }, actor);
  }

  private async assertAccount(): Promise<void> {
    if (!(await this.repos.steamAccount.get())) throw accountRequired();
  }

  private async enqueue(serverId: number, payload: WorkshopJobPayload, actor: Actor): Promise<{ job_id: number }> {
    return { job_id: (await this.jobs.enqueue(WORKSHOP_JOB, { ...payload }, serverId, actor)).id };
  }
}
