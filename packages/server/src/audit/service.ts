import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ApiError, type Actor, type AuditEntry, type AuditEvent, type AuditEventType, type AuditTargetKind } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Fence } from '../db/repositories/leases.js';
import type { Repositories } from '../db/repositories/index.js';
import type { AuditFilter } from '../db/repositories/audit.js';
import type { EventBus } from '../events/bus.js';
import { isoAgo, isoNow, type Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { DatabaseAccess } from '../db/access.js';
import { WebhookOutbox } from '../webhooks/outbox.js';
import { happeningsOf, TOLD_TO_WEBHOOKS } from '../webhooks/from-audit.js';

/** What an entry says: what happened, who did it, on which server, to what. */
export interface AuditRecord {
  type: AuditEventType;
  actor: Actor;
  /** The server it happened on or is about; null for the service's own resources. */
  serverId: number | null;
  /** What it was done to; the server (`serverId`, its name read in the transaction) when left out. */
  target?: { kind: AuditTargetKind; id: string | number | null; name: string | null };
  detail?: Record<string, unknown>;
  /** What webhooks are told besides the detail, not kept in the trail (that a ban's identity is an address). */
  told?: Record<string, unknown>;
}

/** The per-server trail's shape (`GET /servers/{id}/events` and the WebSocket's `event`), as published before the trail was global. */
const asServerEvent = (entry: AuditEntry & { server_id: number }): AuditEvent => ({
  id: entry.id,
  server_id: entry.server_id,
  event_type: entry.event_type,
  actor: entry.actor,
  actor_kind: entry.actor_kind,
  detail: entry.detail,
  timestamp: entry.timestamp,
});

/**
 * The service's audit trail: one chain of entries, each written in the transaction of the change it
 * records (`inTransaction` opens one; `record` joins it), and published on the event path once that
 * transaction has committed.
 */
@injectable()
export class AuditService implements Lifecycle {
  private readonly writing = new Set<Promise<void>>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.DatabaseAccess) private readonly db: DatabaseAccess,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Runs `work` in one transaction (run again after a lost deadlock): the change and its entry stand or fall together. */
  inTransaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.inTransaction(work);
  }

  /**
   * Writes an entry in `trx`, the transaction of the change it records, with the webhooks' deliveries of
   * it. Throws what the write throws: the change then rolls back with it. Published after the commit.
   */
  async record(trx: Knex.Transaction, record: AuditRecord): Promise<AuditEntry> {
    const { type, actor, serverId } = record;
    const detail = record.detail ?? {};
    const server = serverId === null ? undefined : await this.repos.servers.facts(serverId, trx);
    const target = record.target ?? { kind: 'server' as const, id: serverId, name: server?.name ?? null };
    // The system's own doings keep no name, as the trail has always shown them.
    const actorName = actor.kind === 'system' ? null : actor.name.slice(0, 64);
    let wake = () => undefined as void;
    // Before the entry: the chain's head is locked last, for as short a time as can be (architecture.md, The audit chain).
    if (server && TOLD_TO_WEBHOOKS.has(type))
      wake = await this.outbox.enqueueIn(
        trx,
        happeningsOf({ type, actor: actorName, actorKind: actor.kind, detail: { ...detail, ...record.told }, server }),
        server.id,
      );
    const entry = await this.repos.audit.append(trx, {
      server_id: serverId,
      event_type: type,
      actor: actorName,
      actor_kind: actor.kind,
      actor_id: actor.id,
      target_kind: target.kind,
      target_id: target.id === null ? null : String(target.id),
      target_name: target.name === null ? null : target.name.slice(0, 200),
      detail,
      timestamp: isoNow(this.clock),
    });
    const published = () => {
      wake();
      if (entry.server_id !== null)
        this.events.publish({
          type: 'audit',
          server_id: entry.server_id,
          data: asServerEvent(entry as AuditEntry & { server_id: number }),
        });
    };
    // A rollback (or an attempt lost to a deadlock, run again) wrote nothing: nothing to tell. The
    // change's own caller hears of the failure; here it is only noted.
    trx.executionPromise.then(published, (rolledBack: unknown) => {
      this.logger.debug({ err: rolledBack, type }, 'audit entry rolled back with its change: nothing published');
    });
    return entry;
  }

  /**
   * An entry for a change that is not in the database (a signal sent to a process, a command over remote
   * admin, a file written): its own transaction, after the change. A failure is logged, never thrown: the
   * change has happened, and the caller's answer says so. The service's stop waits for these writes.
   */
  recordAlone(record: AuditRecord): Promise<void> {
    const write = this.inTransaction((trx) => this.record(trx, record)).then(
      () => undefined,
      (err: unknown) =>
        void this.logger.error({ err: (err as Error).message, serverId: record.serverId, type: record.type }, 'audit entry not recorded'),
    );
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    return write;
  }

  async stop(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** Drops entries older than `days` (the chain keeps the last one's hash); run by the history retention job. */
  async prune(days: number, fence?: Fence): Promise<number> {
    return this.repos.audit.pruneBefore(isoAgo(this.clock, days * 86_400_000), fence);
  }

  /** One server's entries, in the per-server shape (`GET /servers/{id}/events`). */
  async listOfServer(
    serverId: number,
    query: { limit?: number; offset?: number; event_type?: AuditEventType },
  ): Promise<{ total: number; events: AuditEvent[] }> {
    if (!(await this.repos.servers.find(serverId))) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
    const filter = { server_id: serverId, ...(query.event_type ? { event_type: query.event_type } : {}) };
    const { total, entries } = await this.repos.audit.page(filter, { limit: query.limit ?? 50, offset: query.offset ?? 0 });
    return { total, events: entries.map((e) => asServerEvent(e as AuditEntry & { server_id: number })) };
  }

  /** The whole trail, newest first (`GET /audit`). */
  list(filter: AuditFilter, page: { limit: number; offset: number }): Promise<{ total: number; entries: AuditEntry[] }> {
    return this.repos.audit.page(filter, page);
  }

  /** Every matching entry, oldest first, read in batches: the JSON lines export. */
  export(filter: AuditFilter): AsyncGenerator<AuditEntry> {
    return this.repos.audit.entries(filter);
  }
}
