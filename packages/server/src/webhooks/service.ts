import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  type Actor,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookDelivery,
  expectOnly,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { WebhookSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { DeliveryStatus, WebhookRow } from '../db/repositories/webhooks.js';
import { isoAgo, isoNow, type Clock } from '../jobs/clock.js';
import type { Fence } from '../db/repositories/leases.js';
import { checkDestination, WebhookAddressError } from './address.js';
import { newSecret } from './signing.js';
import { WebhookOutbox } from './outbox.js';
import type { EventBus } from '../events/bus.js';
import { publishDelivery, toDelivery } from './to-delivery.js';
import { AuditService } from '../audit/service.js';

/** How long a rotated-out secret still signs deliveries, so that receivers can switch without a gap. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** A webhook as the audit trail names it: by its host only (a Discord URL's path is its secret). */
const targetOf = (id: number, url: string) => ({ kind: 'webhook' as const, id, name: hostOf(url) });
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : null);

/** The URL as reads show it: its origin only (a Discord webhook's path is its credential). */
const maskUrl = (url: string): string => `${new URL(url).origin}/…`;

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: maskUrl(row.url),
  kind: row.kind,
  events: row.events,
  server_ids: row.server_ids,
  enabled: row.enabled,
  disabled_reason: row.disabled_reason,
  previous_secret_expires_at: row.previous_secret ? row.previous_secret_expires_at : null,
  created_at: row.created_at,
});

/** The webhook endpoints (admins'), their test deliveries, delivery log and redeliveries. */
@injectable()
export class WebhookService {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: WebhookSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async list(): Promise<Webhook[]> {
    return (await this.repos.webhooks.list()).map(toWebhook);
  }

  async get(id: number): Promise<Webhook> {
    return toWebhook(await this.row(id));
  }

  async create(input: CreateWebhookRequest, actor: Actor): Promise<Webhook & { secret: string }> {
    await this.checkUrl(input.url);
    await this.checkServers(input.server_ids ?? null);
    const secret = newSecret();
    const id = await this.audit.inTransaction(async (trx) => {
      const made = await this.repos.webhooks.create(
        {
          url: input.url,
          kind: input.kind,
          events: input.events,
          server_ids: input.server_ids ?? null,
          enabled: input.enabled ?? true,
          disabled_reason: null,
          secret,
          previous_secret: null,
          previous_secret_expires_at: null,
          created_at: isoNow(this.clock),
        },
        trx,
      );
      await this.audit.record(trx, {
        serverId: null,
        type: 'webhook_created',
        actor,
        target: targetOf(made, input.url),
        detail: { kind: input.kind, events: input.events, server_ids: input.server_ids ?? null },
      });
      return made;
    });
    return { ...(await this.get(id)), secret };
  }

  async update(id: number, patch: UpdateWebhookRequest, actor: Actor): Promise<Webhook> {
    const row = await this.row(id);
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    if (patch.server_ids) await this.checkServers(patch.server_ids);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.webhooks.update(
        id,
        {
          ...(patch.url !== undefined ? { url: patch.url } : {}),
          ...(patch.events !== undefined ? { events: patch.events } : {}),
          ...(patch.server_ids !== undefined ? { server_ids: patch.server_ids ?? null } : {}),
          ...(patch.enabled !== undefined ? { enabled: patch.enabled, ...(patch.enabled ? { disabled_reason: null } : {}) } : {}),
        },
        trx,
      );
      const fields = Object.keys(patch).filter((k) => patch[k as keyof UpdateWebhookRequest] !== undefined);
      await this.audit.record(trx, {
        serverId: null,
        type: 'webhook_updated',
        actor,
        target: targetOf(id, patch.url ?? row.url),
        detail: { fields, ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}) },
      });
    });
    return this.get(id);
  }

  async delete(id: number, actor: Actor): Promise<void> {
    const row = await this.row(id);
    await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.webhooks.delete(id, trx))) throw new ApiError('NOT_FOUND', `no webhook ${id}`);
      await this.audit.record(trx, { serverId: null, type: 'webhook_deleted', actor, target: targetOf(id, row.url) });
    });
  }

  async rotateSecret(id: number, actor: Actor): Promise<{ secret: string; previous_secret_expires_at: string }> {
    const row = await this.row(id);
    const secret = newSecret();
    const expires = new Date(this.clock.now() + ROTATION_OVERLAP_MS).toISOString();
    await this.audit.inTransaction(async (trx) => {
      await this.repos.webhooks.update(id, { secret, previous_secret: row.secret, previous_secret_expires_at: expires }, trx);
      await this.audit.record(trx, {
        serverId: null,
        type: 'webhook_secret_rotated',
        actor,
        target: targetOf(id, row.url),
        detail: { previous_secret_expires_at: expires },
      });
    });
    return { secret, previous_secret_expires_at: expires };
  }

  async test(id: number, actor: Actor): Promise<WebhookDelivery> {
    const row = await this.row(id);
    if (!row.enabled)
      throw new ApiError(
        'CONFLICT',
        `webhook ${id} is turned off${row.disabled_reason ? ` (${row.disabled_reason})` : ''}: enable it first`,
      );
    // The delivery and its entry are written together.
    const eventId = await this.audit.inTransaction(async (trx) => {
      const queued = await this.outbox.enqueueTest(trx, id);
      await this.audit.record(trx, {
        serverId: null,
        type: 'webhook_tested',
        actor,
        target: targetOf(id, row.url),
        detail: { event_id: queued },
      });
      return queued;
    });
    this.outbox.wakeNow();
    return publishDelivery(this.events, toDelivery((await this.repos.webhooks.latest(id, eventId))!));
  }

  async deliveries(
    id: number,
    query: { limit?: number; offset?: number; status?: DeliveryStatus },
  ): Promise<{ total: number; items: WebhookDelivery[] }> {
    await this.row(id);
    const { total, rows } = await this.repos.webhooks.page(id, {
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
      ...(query.status ? { status: query.status } : {}),
    });
    return { total, items: rows.map(toDelivery) };
  }

  async redeliver(id: number, deliveryId: number, actor: Actor): Promise<WebhookDelivery> {
    const row = await this.row(id);
    const delivery = await this.repos.webhooks.delivery(id, deliveryId);
    if (!delivery) throw new ApiError('NOT_FOUND', `no delivery ${deliveryId} of webhook ${id}`);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.webhooks.requeue(deliveryId, isoNow(this.clock), trx);
      await this.audit.record(trx, {
        serverId: null,
        type: 'webhook_redelivered',
        actor,
        target: targetOf(id, row.url),
        detail: { delivery_id: deliveryId },
      });
    });
    const queued = publishDelivery(this.events, toDelivery((await this.repos.webhooks.delivery(id, deliveryId))!));
    this.outbox.wakeNow();
    return queued;
  }

  /** Finished deliveries older than `days` leave the log (run by the history retention job). */
  prune(days: number, fence?: Fence): Promise<number> {
    return this.repos.webhooks.pruneBefore(isoAgo(this.clock, days * 86_400_000), fence);
  }

  private async row(id: number): Promise<WebhookRow> {
    const row = await this.repos.webhooks.find(id);
    if (!row) throw new ApiError('NOT_FOUND', `no webhook ${id}`);
    return row;
  }

  /** Refused at once when it leads somewhere private (and checked again at every send). */
  private async checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (err) {
      expectOnly(err, TypeError);
      throw new ApiError('VALIDATION_ERROR', "field 'url': not a URL");
    }
    try {
      await checkDestination(parsed, this.settings.webhookAllowPrivate);
    } catch (err) {
      if (err instanceof WebhookAddressError) throw new ApiError('VALIDATION_ERROR', `field 'url': ${err.message}`);
      throw err;
    }
  }

  private async checkServers(ids: number[] | null): Promise<void> {
    const [unknown] = await this.repos.servers.unknownOf(ids ?? []);
    if (unknown !== undefined) throw new ApiError('VALIDATION_ERROR', `field 'server_ids': no server ${unknown}`);
  }
}
