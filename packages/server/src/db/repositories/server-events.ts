import type { Knex } from 'knex';
import type { ActorKind, AuditEventType } from '@garrison/core';
import { ServerEventModel } from '../models/ServerEventModel.js';
import type { Fence } from './leases.js';

export type AuditRow = Pick<ServerEventModel, 'id' | 'server_id' | 'event_type' | 'actor' | 'actor_kind' | 'actor_id' | 'detail' | 'timestamp'>;

/** The server_events table: the audit trail. */
export class ServerEventRepository {
  private readonly Event: typeof ServerEventModel;

  constructor(private readonly knex: Knex) {
    this.Event = ServerEventModel.bindKnex(knex);
  }

  /** `trx`: written with what else the entry causes (the webhooks' deliveries of it). */
  async insert(row: { server_id: number; event_type: AuditEventType; actor: string | null; actor_kind: ActorKind; actor_id: string | null; detail: string; timestamp: string }, trx?: Knex.Transaction): Promise<AuditRow> {
    return this.Event.query(trx).insertAndFetch(row);
  }

  async page(serverId: number, query: { limit: number; offset: number; event_type?: AuditEventType }): Promise<{ total: number; rows: AuditRow[] }> {
    const base = this.Event.query().where('server_id', serverId);
    if (query.event_type) base.where('event_type', query.event_type);
    const [total, rows] = await Promise.all([base.clone().resultSize(), base.clone().orderBy('id', 'desc').limit(query.limit).offset(query.offset)]);
    return { total, rows };
  }

  /** `fence`: lands only while the lease the pruning runs under is still held. */
  async pruneBefore(cutoff: string, fence: Fence = (q) => q): Promise<number> {
    return fence(this.knex('server_events').where('timestamp', '<', cutoff)).delete();
  }
}
