import type { Knex } from 'knex';

export interface BackupRow {
  id: number;
  server_id: number;
  kind: 'manual' | 'automatic';
  status: 'running' | 'done' | 'failed';
  file: string;
  instance_id: string | null;
  created_at: string;
  finished_at: string | null;
  size_bytes: number | string | null;
  sha256: string | null;
  locked: boolean | number;
  note: string | null;
  include_missions: boolean | number;
  error: string | null;
  manifest: string | null;
}

/** The backups table. */
export class BackupRepository {
  constructor(private readonly knex: Knex) {}

  async create(row: Omit<BackupRow, 'id'>): Promise<number> {
    const [id] = await this.knex('backups').insert(row);
    return id;
  }

  find(serverId: number, id: number): Promise<BackupRow | undefined> {
    return this.knex<BackupRow>('backups').where({ id, server_id: serverId }).first();
  }

  forServer(serverId: number): Promise<BackupRow[]> {
    return this.knex<BackupRow>('backups').where({ server_id: serverId }).orderBy('id', 'desc');
  }

  async update(id: number, patch: Partial<Omit<BackupRow, 'id'>>): Promise<void> {
    await this.knex('backups').where({ id }).update(patch);
  }

  async delete(id: number): Promise<void> {
    await this.knex('backups').where({ id }).delete();
  }

  /** Backups this instance left running when it stopped or died: they never finished. */
  abandoned(instanceId: string): Promise<BackupRow[]> {
    return this.knex<BackupRow>('backups').where({ status: 'running', instance_id: instanceId });
  }

  /** Finished automatic backups past the newest `keep`, unlocked: what retention removes. */
  async prunable(serverId: number, keep: number): Promise<BackupRow[]> {
    const automatic = await this.knex<BackupRow>('backups').where({ server_id: serverId, kind: 'automatic', status: 'done' }).orderBy('id', 'desc');
    return automatic.slice(keep).filter((b) => !b.locked);
  }
}
