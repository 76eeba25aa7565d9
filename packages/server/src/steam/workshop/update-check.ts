import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from '../../tokens.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { WorkshopItemRow } from '../../db/repositories/workshop-items.js';
import { isoNow, type Clock } from '../../jobs/clock.js';
import { AuditService } from '../../audit/service.js';
import { WebhookOutbox } from '../../webhooks/outbox.js';
import { WorkshopService } from './service.js';
import { fetchItemDetails } from './web-api.js';

export interface CheckResult {
  checked: number;
  /** The items found outdated by this check (not those already outdated), by server. */
  newlyOutdated: Map<number, WorkshopItemRow[]>;
}

/**
 * The update check: every installed item of this node's servers (or of one server) asked of Steam in
 * batches, and marked `outdated` when Steam's time_updated is newer than the version installed; each
 * server with newly outdated items told to webhooks (`workshop.updated`) once, listing them. Nothing is
 * downloaded here: an update is asked for (`POST /servers/{id}/workshop/update`, a schedule).
 */
@injectable()
export class WorkshopUpdateCheck {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(WorkshopService) private readonly workshop: WorkshopService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * Checks one server's items (its endpoint: errors thrown), or every item of this node (the job: a server
   * whose game has no Workshop is skipped).
   */
  async run(serverId?: number): Promise<CheckResult> {
    const rows = await this.repos.workshopItems.installedOfNode(this.nodeId, serverId);
    if (serverId !== undefined) await this.workshop.steamOf(serverId);
    // One batch list per Workshop app: servers of two games ask for their own games' items.
    const byApp = new Map<number, WorkshopItemRow[]>();
    const apps = new Map<number, number | null>();
    for (const row of rows) {
      if (!apps.has(row.server_id)) {
        const app = await this.workshop.steamOf(row.server_id).then(
          (steam) => steam.workshop_app_id,
          (err: unknown) => {
            if (serverId !== undefined) throw err;
            this.logger.warn({ err: (err as Error).message, server_id: row.server_id }, 'Workshop check: server skipped');
            return null;
          },
        );
        apps.set(row.server_id, app);
      }
      const app = apps.get(row.server_id);
      if (app !== null && app !== undefined) byApp.set(app, [...(byApp.get(app) ?? []), row]);
    }
    const result: CheckResult = { checked: 0, newlyOutdated: new Map() };
    for (const [app, appRows] of byApp) {
      const answers = await fetchItemDetails(
        appRows.map((r) => r.workshop_id),
        this.workshop.apiOptions(app),
      );
      const now = isoNow(this.clock);
      for (const row of appRows) {
        const answer = answers.get(row.workshop_id);
        // An item Steam no longer gives (removed, hidden) keeps its state: what is installed still loads.
        if (!answer?.ok) continue;
        result.checked += 1;
        if (await this.repos.workshopItems.noteSteamTime(row, answer.details.time_updated, now))
          result.newlyOutdated.set(row.server_id, [...(result.newlyOutdated.get(row.server_id) ?? []), row]);
      }
    }
    await this.tell(result.newlyOutdated, 'outdated');
    return result;
  }

  /**
   * One `workshop.updated` per server: its items newly found outdated (the check), or whose new version a
   * download job installed (`installed`).
   */
  async tell(byServer: Map<number, WorkshopItemRow[]>, stage: 'outdated' | 'installed'): Promise<void> {
    for (const [serverId, items] of byServer) {
      const wake = await this.audit.inTransaction(async (trx) => {
        const server = await this.repos.servers.facts(serverId, trx);
        if (!server) return () => undefined;
        const data = {
          server_id: serverId,
          server_name: server.name,
          stage,
          items: items.map((i) => ({ workshop_id: i.workshop_id, name: i.name })),
        };
        return this.outbox.enqueueIn(trx, [{ type: 'workshop.updated', data }], serverId);
      });
      wake();
    }
  }
}
