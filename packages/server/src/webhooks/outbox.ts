import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { Knex } from 'knex';
import type { WebhookEventData, WebhookEventType, WebhookPayload } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { NewDelivery, WebhookRow } from '../db/repositories/webhooks.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { newEventId } from './signing.js';
import type { Happening } from './from-audit.js';

type Wake = () => void;

/** How long a Discord delivery waits for others to share its message. */
const DISCORD_GATHER_MS = 2_000;

/** Whether an endpoint wants an event of this type about this server (null: not about one server). */
function wants(hook: WebhookRow, type: WebhookEventType, serverId: number | null): boolean {
  if (type === 'webhook.test') return false; // only ever sent to the endpoint whose test button was pressed
  if (!hook.events.includes(type)) return false;
  return hook.server_ids === null || serverId === null || hook.server_ids.includes(serverId);
}

/**
 * Writes deliveries into the outbox: one row per endpoint that wants the event, in the caller's
 * transaction when the event has a cause written to the database (an audit entry), so that the two
 * stand or fall together; then wakes the delivering worker of this instance.
 */
@injectable()
export class WebhookOutbox {
  private wake: Wake = () => undefined;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** What to call once deliveries are waiting (the delivering job's run-now). */
  onEnqueued(wake: Wake): void {
    this.wake = wake;
  }

  /** Wakes the delivering worker (a redelivery). */
  wakeNow(): void {
    this.wake();
  }

  /** Enqueues in `trx`; the caller commits, then calls the returned function to wake the worker. */
  async enqueueIn(trx: Knex, happenings: Happening[], serverId: number | null): Promise<() => void> {
    if (!happenings.length) return () => undefined;
    const hooks = await this.repos.webhooks.enabled(trx);
    const rows: NewDelivery[] = [];
    for (const happening of happenings) {
      for (const hook of hooks) if (wants(hook, happening.type, serverId)) rows.push(this.row(hook, happening, serverId));
    }
    await this.repos.webhooks.enqueue(rows, trx);
    return rows.length ? () => this.wake() : () => undefined;
  }

  /**
   * An event about a server with no row of its own to share a transaction with (a player joining, RCon
   * lost, a backup written): its name is looked up only when some endpoint wants it. Never throws.
   */
  async emitAbout<K extends WebhookEventType>(
    type: K,
    serverId: number,
    rest: Omit<WebhookEventData<K>, 'server_id' | 'server_name'>,
  ): Promise<void> {
    try {
      const hooks = (await this.repos.webhooks.enabled()).filter((hook) => wants(hook, type, serverId));
      if (!hooks.length) return;
      const server = await this.repos.servers.facts(serverId);
      if (!server) return;
      const happening = { type, data: { server_id: serverId, server_name: server.name, ...rest } } as Happening;
      await this.repos.webhooks.enqueue(hooks.map((hook) => this.row(hook, happening, serverId)));
      this.wake();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, type, serverId }, 'webhook deliveries not enqueued');
    }
  }

  /**
   * An event of the cluster (a node gone or back), which every instance may notice: the delivery's id is
   * made from what happened (`key`), so the instances that notice it enqueue it once between them.
   */
  async emitOnce<K extends 'node.offline' | 'node.online'>(type: K, key: string, data: WebhookEventData<K>): Promise<void> {
    try {
      const hooks = (await this.repos.webhooks.enabled()).filter((hook) => wants(hook, type, null));
      if (!hooks.length) return;
      const eventId = `evt_${createHash('sha256').update(`${type}:${key}`).digest('base64url').slice(0, 32)}`;
      await this.repos.webhooks.enqueueOnce(hooks.map((hook) => ({ ...this.row(hook, { type, data }, null), event_id: eventId })));
      this.wake();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, type }, 'webhook deliveries not enqueued');
    }
  }

  /** The test button's delivery, to that endpoint alone, in `trx` (with its audit entry); the caller wakes the worker once it commits. */
  async enqueueTest(trx: Knex, webhookId: number): Promise<string> {
    const row = this.row(
      { id: webhookId, kind: 'generic' },
      { type: 'webhook.test', data: { webhook_id: webhookId, message: 'A test delivery from Garrison: this endpoint works.' } },
      null,
    );
    await this.repos.webhooks.enqueue([row], trx);
    return row.event_id;
  }

  private row(hook: Pick<WebhookRow, 'id' | 'kind'>, happening: Happening, serverId: number | null): NewDelivery {
    const now = isoNow(this.clock);
    const payload = { type: happening.type, timestamp: now, data: happening.data } as WebhookPayload;
    // A Discord channel gets what happens within a moment as one message (a join flood, a crash and its
    // restart) rather than a message each: its rows wait that moment before they are due.
    const due = hook.kind === 'discord' ? new Date(this.clock.now() + DISCORD_GATHER_MS).toISOString() : now;
    return {
      webhook_id: hook.id,
      event_id: newEventId(),
      event_type: happening.type,
      server_id: serverId,
      payload,
      next_attempt_at: due,
      created_at: now,
    };
  }
}
