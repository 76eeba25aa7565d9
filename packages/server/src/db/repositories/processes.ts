import type { Knex } from 'knex';
import { ACTIVE_STATUSES, type ProcessRole, type ServerStatus } from '@garrison/core';

export interface ProcessRow {
  id: number;
  server_id: number;
  role: ProcessRole;
  idx: number;
  node_id: string | null;
  status: ServerStatus;
  pid: number | null;
  start_time: string | null;
  executable: string;
  restart_count: number;
  started_at: string | null;
  updated_at: string;
}

export type ProcessKey = Pick<ProcessRow, 'server_id' | 'role' | 'idx'>;
type ProcessPatch = Partial<Omit<ProcessRow, 'id' | 'server_id' | 'role' | 'idx'>>;

/** The processes table: every process of every server, each owned by the instance that runs it. */
export class ProcessRepository {
  constructor(private readonly knex: Knex) {}

  private byKey(key: ProcessKey) {
    return this.knex<ProcessRow>('processes').where({ server_id: key.server_id, role: key.role, idx: key.idx });
  }

  async find(key: ProcessKey): Promise<ProcessRow | undefined> {
    return this.byKey(key).first();
  }

  async forServer(serverId: number): Promise<ProcessRow[]> {
    return this.knex<ProcessRow>('processes')
      .where('server_id', serverId)
      .orderBy([{ column: 'role', order: 'desc' }, 'idx']);
  }

  /** The row of this process, made or replaced: a new spawn of the same role and index starts afresh. */
  async put(key: ProcessKey, fields: Omit<ProcessRow, 'id' | 'server_id' | 'role' | 'idx'>): Promise<void> {
    const updated = await this.byKey(key).update(fields);
    if (!updated) await this.knex('processes').insert({ ...key, ...fields });
  }

  async update(key: ProcessKey, patch: ProcessPatch): Promise<void> {
    await this.byKey(key).update(patch);
  }

  /**
   * The processes this instance owns that may still be under way, and the ones no instance owns (left by
   * a version before processes were owned): what this instance re-adopts at its start, claimed for it.
   */
  async claimForAdoption(nodeId: string): Promise<ProcessRow[]> {
    await this.knex('processes').whereNull('node_id').update({ node_id: nodeId });
    return this.knex<ProcessRow>('processes')
      .where('node_id', nodeId)
      .whereIn('status', ACTIVE_STATUSES)
      .orderBy([{ column: 'server_id' }, { column: 'role', order: 'desc' }, { column: 'idx' }]);
  }

  /** Headless clients beyond `count` (the server was given fewer): gone. */
  async dropAbove(serverId: number, role: ProcessRole, count: number): Promise<void> {
    await this.knex('processes').where({ server_id: serverId, role }).andWhere('idx', '>', count).delete();
  }
}
