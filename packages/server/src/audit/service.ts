import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type Actor, type AuditEvent, type AuditEventType } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Fence } from '../db/repositories/leases.js';
import type { Repositories } from '../db/repositories/index.js';
import type { AuditRow } from '../db/repositories/server-events.js';
import type { EventBus } from '../events/bus.js';
import { isoAgo, isoNow, type Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Database } from '../db/connection.js';
import { inTransaction } from '../db/transaction.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { happeningsOf, TOLD_TO_WEBHOOKS } from '../webhooks/from-audit.js';

const toAuditEvent = (row: AuditRow): AuditEvent => ({
  id: row.id,
  server_id: row.server_id,
  event_type: row.event_type as AuditEventType,
  actor: row.actor,
  actor_kind: row.actor_kind,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
  timestamp: row.timestamp,
});

/** The audit trail of each server: recorded by the service that acts, stored, then published on the event path. */
@injectable()
export class AuditService implements Lifecycle {
  private readonly writing = new Set<Promise<void>>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Database) private readonly db: Database,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Records what `actor` did. Never throws; callers rarely wait, and the service's stop waits for every write. */
  record(serverId: number, type: AuditEventType, actor: Actor, detail: Record<string, unknown> = {}): Promise<void> {
    const write = this.write(serverId, type, actor, detail);
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    return write;
  }

  /** The stop waits for the entries being written, so that none is lost. */
  async stop(): Promise<void> {
    await Promise.all(this.writing);
  }

  private async write(serverId: number, type: AuditEventType, actor: Actor, detail: Record<string, unknown>): Promise<void> {
    try {
      const entry = {
        server_id: serverId,
        event_type: type,
        // The system's own doings keep no name, as the trail has always shown them.
        actor: actor.kind === 'system' ? null : actor.name.slice(0, 64),
        actor_kind: actor.kind,
        actor_id: actor.id,
        detail: JSON.stringify(detail),
        timestamp: isoNow(this.clock),
      };
      let wake = () => undefined as void;
      // The webhooks' deliveries of the entry stand or fall with it: one transaction.
      const row = !TOLD_TO_WEBHOOKS.has(type)
        ? await this.repos.audit.insert(entry)
        : await inTransaction(this.db, async (trx) => {
            const written = await this.repos.audit.insert(entry, trx);
            const server = await this.repos.servers.facts(serverId, trx);
            if (server) wake = await this.outbox.enqueueIn(trx, happeningsOf({ type, actor: entry.actor, actorKind: actor.kind, detail, server }), serverId);
            return written;
          });
      wake();
      this.events.publish({ type: 'audit', server_id: serverId, data: toAuditEvent(row) });
    } catch (err) {
      // A server deleted meanwhile takes its trail with it; nothing else may make an action fail here.
      this.logger.warn({ err: (err as Error).message, serverId, type }, 'audit event not recorded');
    }
  }

  /** Drops entries older than `days`; run by the history retention job. */
  async prune(days: number, fence?: Fence): Promise<number> {
    return this.repos.audit.pruneBefore(isoAgo(this.clock, days * 86_400_000), fence);
  }

  async list(serverId: number, query: { limit?: number; offset?: number; event_type?: AuditEventType }): Promise<{ total: number; events: AuditEvent[] }> {
    if (!(await this.repos.servers.find(serverId))) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
    const { total, rows } = await this.repos.audit.page(serverId, { limit: query.limit ?? 50, offset: query.offset ?? 0, ...(query.event_type ? { event_type: query.event_type } : {}) });
    return { total, events: rows.map(toAuditEvent) };
  }
}
