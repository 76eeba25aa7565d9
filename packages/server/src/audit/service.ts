import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { AuditEvent, AuditEventType } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Models } from '../db/models/index.js';
import type { ServerEventModel } from '../db/models/ServerEventModel.js';
import type { EventBus } from '../events/bus.js';

const toAuditEvent = (row: ServerEventModel): AuditEvent => ({
  id: row.id,
  server_id: row.server_id,
  event_type: row.event_type as AuditEventType,
  actor: row.actor,
  detail: JSON.parse(row.detail) as Record<string, unknown>,
  timestamp: row.timestamp,
});

/** The audit trail of each server: stored, then published on the event path. */
@injectable()
export class AuditService {
  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  private readonly writing = new Set<Promise<void>>();

  /** Records what happened; `actor` is the username, or null for what the service did by itself. Never throws. */
  record(serverId: number, type: AuditEventType, actor: string | null, detail: Record<string, unknown> = {}): Promise<void> {
    // Callers rarely wait for the trail; the service's stop does (`flush`), so that nothing is lost.
    const write = this.write(serverId, type, actor, detail);
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
    return write;
  }

  /** Waits for the entries being written. */
  async flush(): Promise<void> {
    await Promise.all(this.writing);
  }

  private async write(serverId: number, type: AuditEventType, actor: string | null, detail: Record<string, unknown>): Promise<void> {
    try {
      const row = await this.models.ServerEvent.query().insertAndFetch({
        server_id: serverId,
        event_type: type,
        actor,
        detail: JSON.stringify(detail),
        timestamp: new Date().toISOString(),
      });
      this.events.publish({ type: 'audit', server_id: serverId, data: toAuditEvent(row) });
    } catch (err) {
      // A server deleted meanwhile takes its trail with it; nothing else may make an action fail here.
      this.logger.warn({ err: (err as Error).message, serverId, type }, 'audit event not recorded');
    }
  }

  /** Drops entries older than `days`; run by the history retention job. */
  async prune(days: number): Promise<void> {
    const cutoff = new Date(Date.now() - days * 86_400_000).toISOString();
    await this.models.ServerEvent.query().where('timestamp', '<', cutoff).delete();
  }

  async list(serverId: number, query: { limit?: number; offset?: number; event_type?: AuditEventType }): Promise<{ total: number; events: AuditEvent[] }> {
    const base = this.models.ServerEvent.query().where('server_id', serverId);
    if (query.event_type) base.where('event_type', query.event_type);
    const [total, rows] = await Promise.all([
      base.clone().resultSize(),
      base.clone().orderBy('id', 'desc').limit(query.limit ?? 50).offset(query.offset ?? 0),
    ]);
    return { total, events: rows.map(toAuditEvent) };
  }
}
