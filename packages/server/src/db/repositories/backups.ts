import type { Knex } from 'knex';
import type { BackupManifest, Static } from '@garrison/core';

export interface BackupRow {
  id: number;
  server_id: number;
  kind: 'manual' | 'automatic';
  status: 'running' | 'done' | 'failed';
  file: string;
  node_id: string | null;
  created_at: string;
  finished_at: string | null;
  size_bytes: number | null;
  sha256: string | null;
  locked: boolean;
  note: string | null;
  include_missions: boolean;
  error: string | null;
  /** What the archive holds, as shown (its secrets masked). */
  manifest: Static<typeof BackupManifest> | null;
}

type Stored = Record<string, unknown>;

/** The stored row: flags 0/1 on both databases, a big size as text on MySQL/MariaDB, the manifest as JSON text. */
const toBackup = (row: Stored): BackupRow => ({
  ...(row as unknown as BackupRow),
  size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
  locked: Boolean(row.locked),
  include_missions: Boolean(row.include_missions),
  manifest: typeof row.manifest === 'string' ? (JSON.parse(row.manifest) as BackupRow['manifest']) : null,
});
const stored = (patch: Partial<Omit<BackupRow, 'id'>>): Stored =>
  patch.manifest === undefined ? { ...patch } : { ...patch, manifest: patch.manifest && JSON.stringify(patch.manifest) };

/** The backups table. */
export class BackupRepository {
  constructor(private readonly knex: Knex) {}

  async create(row: Omit<BackupRow, 'id'>, trx?: Knex.Transaction): Promise<number> {
    const [id] = await (trx ?? this.knex)('backups').insert(stored(row));
    return id;
  }

  async find(serverId: number, id: number): Promise<BackupRow | undefined> {
    const row = await this.knex('backups').where({ id, server_id: serverId }).first();
    return row ? toBackup(row) : undefined;
  }

  async forServer(serverId: number): Promise<BackupRow[]> {
    return (await this.knex('backups').where({ server_id: serverId }).orderBy('id', 'desc')).map(toBackup);
  }

  async update(id: number, patch: Partial<Omit<BackupRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('backups').where({ id }).update(stored(patch));
  }

  async delete(id: number, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('backups').where({ id }).delete();
  }

  /** Backups this instance left running when it stopped or died: they never finished. */
  async abandoned(nodeId: string): Promise<BackupRow[]> {
    return (await this.knex('backups').where({ status: 'running', node_id: nodeId })).map(toBackup);
  }

  /** Finished automatic backups past the newest `keep`, unlocked: what retention removes. */
  async prunable(serverId: number, keep: number): Promise<BackupRow[]> {
    const automatic = (
      await this.knex('backups').where({ server_id: serverId, kind: 'automatic', status: 'done' }).orderBy('id', 'desc')
    ).map(toBackup);
    return automatic.slice(keep).filter((b) => !b.locked);
  }
}
