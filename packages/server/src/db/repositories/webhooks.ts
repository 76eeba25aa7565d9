import type { Knex } from 'knex';
import type { WebhookEventType, WebhookPayload } from '@garrison/core';
import type { Fence } from './leases.js';

export interface WebhookRow {
  id: number;
  url: string;
  kind: 'generic' | 'discord';
  events: WebhookEventType[];
  /** Null: every server's events. */
  server_ids: number[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  server_id: number | null;
  payload: WebhookPayload;
  status: DeliveryStatus;
  attempt: number;
  next_attempt_at: string | null;
  claimed_until: string | null;
  response_status: number | null;
  response_snippet: string | null;
  error: string | null;
  duration_ms: number | null;
  delivered_at: string | null;
  created_at: string;
}

export type NewDelivery = Pick<
  DeliveryRow,
  'webhook_id' | 'event_id' | 'event_type' | 'server_id' | 'payload' | 'next_attempt_at' | 'created_at'
>;
export type DeliveryOutcome = Partial<
  Pick<
    DeliveryRow,
    'status' | 'attempt' | 'next_attempt_at' | 'response_status' | 'response_snippet' | 'error' | 'duration_ms' | 'delivered_at'
  >
>;

type Stored = Record<string, unknown>;

/** The stored endpoint: its lists are JSON text, its flag 0/1 on both databases. */
const toWebhook = (row: Stored): WebhookRow => ({
  ...(row as unknown as WebhookRow),
  events: JSON.parse(row.events as string) as WebhookEventType[],
  server_ids: row.server_ids ? (JSON.parse(row.server_ids as string) as number[]) : null,
  enabled: Boolean(row.enabled),
});

function toStoredWebhook(patch: Partial<Omit<WebhookRow, 'id'>>): Stored {
  const stored: Stored = { ...patch };
  if (patch.events !== undefined) stored.events = JSON.stringify(patch.events);
  if (patch.server_ids !== undefined) stored.server_ids = patch.server_ids ? JSON.stringify(patch.server_ids) : null;
  return stored;
}

const toDelivery = (row: Stored): DeliveryRow => ({
  ...(row as unknown as DeliveryRow),
  payload: JSON.parse(row.payload as string) as WebhookPayload,
});
const toStoredDelivery = (row: NewDelivery): Stored => ({ ...row, payload: JSON.stringify(row.payload), status: 'pending', attempt: 0 });

/** The webhook endpoints and their outbox (the deliveries, which are also the delivery log). */
export class WebhookRepository {
  constructor(private readonly knex: Knex) {}

  async list(): Promise<WebhookRow[]> {
    return (await this.knex('webhooks').orderBy('id')).map(toWebhook);
  }

  /** The enabled endpoints (few: every one is read, and matched to an event in code). */
  async enabled(db: Knex = this.knex): Promise<WebhookRow[]> {
    return (await db('webhooks').where({ enabled: true })).map(toWebhook);
  }

  async find(id: number): Promise<WebhookRow | undefined> {
    const row = await this.knex('webhooks').where({ id }).first();
    return row ? toWebhook(row) : undefined;
  }

  async create(row: Omit<WebhookRow, 'id'>, trx?: Knex.Transaction): Promise<number> {
    const [id] = await (trx ?? this.knex)('webhooks').insert(toStoredWebhook(row));
    return Number(id);
  }

  async update(id: number, patch: Partial<Omit<WebhookRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('webhooks').where({ id }).update(toStoredWebhook(patch));
  }

  async delete(id: number, trx?: Knex.Transaction): Promise<boolean> {
    const db = trx ?? this.knex;
    await db('webhook_deliveries').where({ webhook_id: id }).delete();
    return (await db('webhooks').where({ id }).delete()) > 0;
  }

  async enqueue(rows: NewDelivery[], db: Knex = this.knex): Promise<void> {
    if (rows.length) await db('webhook_deliveries').insert(rows.map(toStoredDelivery));
  }

  /** Rows whose (endpoint, event id) is already there are left out: several instances enqueue one event once. */
  async enqueueOnce(rows: NewDelivery[]): Promise<void> {
    if (rows.length)
      await this.knex('webhook_deliveries').insert(rows.map(toStoredDelivery)).onConflict(['webhook_id', 'event_id']).ignore();
  }

  /** The newest delivery of an event to an endpoint (the test button's, just enqueued). */
  async latest(webhookId: number, eventId: string): Promise<DeliveryRow | undefined> {
    const row = await this.knex('webhook_deliveries').where({ webhook_id: webhookId, event_id: eventId }).orderBy('id', 'desc').first();
    return row ? toDelivery(row) : undefined;
  }

  async delivery(webhookId: number, id: number): Promise<DeliveryRow | undefined> {
    const row = await this.knex('webhook_deliveries').where({ webhook_id: webhookId, id }).first();
    return row ? toDelivery(row) : undefined;
  }

  async page(
    webhookId: number,
    query: { limit: number; offset: number; status?: DeliveryStatus },
  ): Promise<{ total: number; rows: DeliveryRow[] }> {
    const base = this.knex('webhook_deliveries').where({ webhook_id: webhookId });
    if (query.status) base.where({ status: query.status });
    const [count, rows] = await Promise.all([
      base.clone().count({ n: '*' }).first(),
      base.clone().orderBy('id', 'desc').limit(query.limit).offset(query.offset),
    ]);
    return { total: Number((count as { n: number | string } | undefined)?.n ?? 0), rows: rows.map(toDelivery) };
  }

  /** Whether some delivery of an endpoint that is on is due (a read; nothing claimed). */
  async anyDue(now: string): Promise<boolean> {
    const row = await this.knex('webhook_deliveries')
      .select('id')
      .where({ status: 'pending' })
      .whereIn('webhook_id', this.knex('webhooks').select('id').where({ enabled: true }))
      .andWhere('next_attempt_at', '<=', now)
      .andWhere((q) => {
        q.whereNull('claimed_until').orWhere('claimed_until', '<', now);
      })
      .first();
    return row !== undefined;
  }

  /**
   * Takes up to `limit` due deliveries for this worker until `claimUntil`: rows another worker holds
   * (a live claim, or locked by its claiming transaction on MySQL/MariaDB: SKIP LOCKED) are passed over.
   * With a due delivery of a Discord endpoint come that endpoint's fresh ones still gathering, so that
   * a burst goes out as one message.
   */
  async claimDue(now: string, claimUntil: string, limit: number): Promise<DeliveryRow[]> {
    const sqlite = this.knex.client.config.client === 'better-sqlite3';
    // READ COMMITTED on MySQL/MariaDB: the locking read takes no gap locks, which would make the inserts
    // of new deliveries (in the audit entry's transaction) wait on it, or deadlock with it.
    return this.knex.transaction(
      async (trx) => {
        const free = (q: Knex.QueryBuilder) => {
          q.whereNull('claimed_until').orWhere('claimed_until', '<', now);
        };
        const lock = (q: Knex.QueryBuilder) => (sqlite ? q : q.forUpdate().skipLocked());
        const due = await lock(
          trx('webhook_deliveries')
            .select('id', 'webhook_id')
            .where({ status: 'pending' })
            .whereIn('webhook_id', trx('webhooks').select('id').where({ enabled: true }))
            .andWhere('next_attempt_at', '<=', now)
            .andWhere(free)
            .orderBy('next_attempt_at')
            .limit(limit),
        );
        if (!due.length) return [];
        const dueRows = due as { id: number; webhook_id: number }[];
        const endpoints: number[] = [...new Set(dueRows.map((r) => r.webhook_id))];
        const gathering = await lock(
          trx('webhook_deliveries')
            .select('id')
            .where({ status: 'pending', attempt: 0 })
            .whereIn('webhook_id', trx('webhooks').select('id').where({ kind: 'discord' }).whereIn('id', endpoints))
            .whereNotIn(
              'id',
              dueRows.map((r) => r.id),
            )
            .andWhere(free)
            .limit(limit),
        );
        const ids = [...dueRows, ...(gathering as { id: number }[])].map((r) => r.id);
        await trx('webhook_deliveries').whereIn('id', ids).update({ claimed_until: claimUntil });
        return (await trx('webhook_deliveries').whereIn('id', ids).orderBy('id')).map(toDelivery);
      },
      sqlite ? {} : { isolationLevel: 'read committed' },
    );
  }

  /** The outcomes of a pass's sends, in one transaction (one commit rather than one a delivery). */
  async settle(outcomes: { ids: number[]; outcome: DeliveryOutcome }[]): Promise<void> {
    if (!outcomes.length) return;
    await this.knex.transaction(async (trx) => {
      for (const { ids, outcome } of outcomes)
        await trx('webhook_deliveries')
          .whereIn('id', ids)
          .update({ ...outcome, claimed_until: null });
    });
  }

  /** Due again now, whatever became of it (redeliver): same event id, attempts counted on. */
  async requeue(id: number, now: string, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('webhook_deliveries').where({ id }).update({ status: 'pending', next_attempt_at: now, claimed_until: null });
  }

  /** Pending deliveries of an endpoint turned off (410 Gone): they will not be tried again. */
  async abandonPending(webhookId: number, error: string): Promise<void> {
    await this.knex('webhook_deliveries')
      .where({ webhook_id: webhookId, status: 'pending' })
      .update({ status: 'failed', next_attempt_at: null, claimed_until: null, error });
  }

  /** Finished deliveries created before `cutoff` (the log is kept as long as the audit trail). */
  async pruneBefore(cutoff: string, fence: Fence = (q) => q): Promise<number> {
    return fence(this.knex('webhook_deliveries').whereIn('status', ['delivered', 'failed']).andWhere('created_at', '<', cutoff)).delete();
  }
}
