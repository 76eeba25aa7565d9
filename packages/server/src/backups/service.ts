import { createReadStream } from 'node:fs';
import { chmod, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type Actor, type Backup, type BackupPart, ifMissing } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { BackupSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { SecretSettings } from '../auth/tokens.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import type { BackupRow } from '../db/repositories/backups.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ServerService } from '../servers/service.js';
import { AuditService } from '../audit/service.js';
import { BackupWriter } from './writer.js';

/** Where backups go: `GARRISON_BACKUP_DIR`, or the data dir's `backups`. */
export const backupRoot = (settings: Pick<BackupSettings, 'backupDir'> & Pick<DataSettings, 'dataDir'>) =>
  settings.backupDir ?? join(settings.dataDir, 'backups');

function toBackup(row: BackupRow): Backup {
  return {
    id: row.id,
    server_id: row.server_id,
    kind: row.kind,
    status: row.status,
    created_at: row.created_at,
    finished_at: row.finished_at,
    size_bytes: row.size_bytes,
    sha256: row.sha256,
    locked: row.locked,
    note: row.note,
    include_missions: row.include_missions,
    error: row.error,
  };
}

/**
 * Backups of a server's state: written in the background (202, then `backup` events), streamed into a
 * tar.gz with its SHA-256 (writer.ts), pruned by the server's `backup_keep` (automatic ones only),
 * downloaded, locked, deleted, restored (restore.ts).
 */
@injectable()
export class BackupService implements Lifecycle {
  private readonly running = new Map<number, { controller: AbortController; done: Promise<void> }>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: BackupSettings & SecretSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(BackupWriter) private readonly writer: BackupWriter,
  ) {}

  dirOf(serverId: number): string {
    return join(backupRoot(this.settings), String(serverId));
  }

  /** What a backup of this server holds (the game's parts; without any, the server's own folder). */
  partsOf(server: ServerRow): Promise<BackupPart[]> {
    return this.writer.partsOf(server);
  }

  /** Backups this instance was writing when it stopped or died never finished: failed, and no partial file stays. */
  async start(): Promise<void> {
    for (const row of await this.repos.backups.abandoned(this.nodeId)) {
      await this.repos.backups.update(row.id, {
        status: 'failed',
        error: 'the service stopped while it was written',
        finished_at: isoNow(this.clock),
      });
      await this.removeTemp(row.server_id);
    }
    await this.tightenModes();
  }

  /**
   * Archives written before they were made 0600 in 0700 folders are made so: they hold the rendered config
   * files with the game's passwords. The backup root itself is left as it is when the deployer chose it.
   */
  private async tightenModes(): Promise<void> {
    const root = backupRoot(this.settings);
    // Not ours to change (another owner): said, and the service starts all the same.
    const unchanged = (path: string) => (err: unknown) => this.logger.warn({ path, err }, 'could not make a backup file private');
    for (const name of await readdir(root).catch(ifMissing<string[]>([]))) {
      if (!/^\d+$/.test(name)) continue;
      const dir = join(root, name);
      await chmod(dir, 0o700).catch(unchanged(dir));
      for (const file of await readdir(dir).catch(ifMissing<string[]>([])))
        if (file.endsWith('.tar.gz')) await chmod(join(dir, file), 0o600).catch(unchanged(join(dir, file)));
    }
  }

  async stop(): Promise<void> {
    const all = [...this.running.values()];
    for (const r of all) r.controller.abort();
    await Promise.allSettled(all.map((r) => r.done));
  }

  async list(serverId: number): Promise<Backup[]> {
    await this.servers.row(serverId);
    return (await this.repos.backups.forServer(serverId)).map(toBackup);
  }

  async get(serverId: number, id: number) {
    const row = await this.row(serverId, id);
    return { ...toBackup(row), manifest: row.manifest };
  }

  async row(serverId: number, id: number): Promise<BackupRow> {
    await this.servers.row(serverId);
    const row = await this.repos.backups.find(serverId, id);
    if (!row) throw new ApiError('NOT_FOUND', `server ${serverId} has no backup ${id}`);
    return row;
  }

  /** Starts a backup in the background; `done` settles when it has (for a schedule's step, which waits). */
  async create(
    serverId: number,
    input: { note?: string; include_missions?: boolean },
    actor: Actor,
    kind: 'manual' | 'automatic' = 'manual',
  ): Promise<{ backup: Backup; done: Promise<Backup> }> {
    const server = await this.servers.row(serverId);
    const stamp = isoNow(this.clock);
    const file = `backup-${stamp.replace(/[:.]/g, '-')}-${Math.random().toString(36).slice(2, 8)}.tar.gz`;
    const id = await this.audit.inTransaction(async (trx) => {
      const made = await this.repos.backups.create(
        {
          server_id: serverId,
          kind,
          status: 'running',
          file,
          node_id: this.nodeId,
          created_at: stamp,
          finished_at: null,
          size_bytes: null,
          sha256: null,
          locked: false,
          note: input.note ?? null,
          include_missions: Boolean(input.include_missions),
          error: null,
          manifest: null,
        },
        trx,
      );
      await this.audit.record(trx, {
        serverId,
        type: 'backup_started',
        actor,
        target: { kind: 'backup', id: made, name: file },
        detail: { backup_id: made, kind },
      });
      return made;
    });
    const controller = new AbortController();
    const job = { id, serverId: server.id, dir: this.dirOf(server.id), file, withMissions: Boolean(input.include_missions) };
    const done = this.writer.write(job, controller.signal).then(async () => toBackup((await this.repos.backups.find(serverId, id))!));
    this.running.set(id, { controller, done: done.then(() => undefined) });
    void done.finally(() => this.running.delete(id));
    return { backup: toBackup((await this.repos.backups.find(serverId, id))!), done };
  }

  /** Locks, unlocks or notes a backup; a body that changes nothing answers the backup as it is (no entry). */
  async update(serverId: number, id: number, patch: { locked?: boolean; note?: string | null }, actor: Actor): Promise<Backup> {
    const row = await this.row(serverId, id);
    const changes = {
      ...(patch.locked !== undefined && patch.locked !== row.locked ? { locked: patch.locked } : {}),
      ...(patch.note !== undefined && patch.note !== row.note ? { note: patch.note } : {}),
    };
    if (!Object.keys(changes).length) return toBackup(row);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.backups.update(id, changes, trx);
      await this.audit.record(trx, {
        serverId,
        type: 'backup_updated',
        actor,
        target: { kind: 'backup', id, name: row.file },
        detail: { backup_id: id, ...changes },
      });
    });
    return toBackup(await this.row(serverId, id));
  }

  async delete(serverId: number, id: number, actor: Actor): Promise<void> {
    const row = await this.row(serverId, id);
    if (row.locked) throw new ApiError('CONFLICT', `backup ${id} is locked; unlock it first`);
    if (row.status === 'running') throw new ApiError('CONFLICT', `backup ${id} is still being written`);
    await rm(join(this.dirOf(serverId), row.file), { force: true });
    await this.audit.inTransaction(async (trx) => {
      await this.repos.backups.delete(id, trx);
      await this.audit.record(trx, {
        serverId,
        type: 'backup_deleted',
        actor,
        target: { kind: 'backup', id, name: row.file },
        detail: { backup_id: id },
      });
    });
  }

  /** The archive, to stream (200 with `application/gzip`). */
  async download(serverId: number, id: number) {
    const row = await this.row(serverId, id);
    if (row.status !== 'done') throw new ApiError('CONFLICT', `backup ${id} is ${row.status}`);
    const path = join(this.dirOf(serverId), row.file);
    const size = await stat(path).then((s) => s.size, ifMissing(null));
    if (size === null) throw new ApiError('NOT_FOUND', `the archive of backup ${id} is gone from ${this.dirOf(serverId)}`);
    return { filename: row.file, size, stream: () => createReadStream(path) };
  }

  private async removeTemp(serverId: number): Promise<void> {
    const dir = this.dirOf(serverId);
    for (const name of await readdir(dir).catch(ifMissing<string[]>([])))
      if (name.startsWith('.')) await rm(join(dir, name), { force: true, recursive: true });
  }
}
