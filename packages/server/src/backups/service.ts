import { createReadStream } from 'node:fs';
import { chmod, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import {
  ACTIVE_STATUSES,
  ApiError,
  SYSTEM_ACTOR,
  enabledModsOf,
  type Actor,
  type Backup,
  type BackupPart,
  ifMissing,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { BackupSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { SecretSettings } from '../auth/tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { BackupRow } from '../db/repositories/backups.js';
import type { ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { ServerService } from '../servers/service.js';
import { serverContext } from '../servers/context.js';
import { ConfigService } from '../config/service.js';
import { maskSections } from '../config/masking.js';
import { AuditService } from '../audit/service.js';
import { SERVICE_VERSION } from '../system/version.js';
import { choose, writeArchive } from './archive.js';
import { sealedConfig } from './secrets.js';
import { WebhookOutbox } from '../webhooks/outbox.js';

/** Where backups go: `GARRISON_BACKUP_DIR`, or the data dir's `backups`. */
export const backupRoot = (settings: Pick<BackupSettings, 'backupDir'> & Pick<DataSettings, 'dataDir'>) =>
  settings.backupDir ?? join(settings.dataDir, 'backups');

/** Progress events at most once per this many bytes written. */
const PROGRESS_STEP = 4 * 1024 * 1024;

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
 * tar.gz with its SHA-256, pruned by the server's `backup_keep` (automatic ones only), downloaded,
 * locked, deleted, restored (restore.ts).
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
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  dirOf(serverId: number): string {
    return join(backupRoot(this.settings), String(serverId));
  }

  /** What a backup of this server holds (the game's parts; without any, the server's own folder). */
  async partsOf(server: ServerRow): Promise<BackupPart[]> {
    const ctx = serverContext(server, this.settings.dataDir);
    return (
      (await this.servers.adapterOf(server.id)).capabilities.process_config?.backupParts?.(ctx) ?? [{ name: 'server', root: ctx.serverDir }]
    );
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
    const done = this.write(id, server.id, file, Boolean(input.include_missions), controller.signal);
    this.running.set(id, { controller, done: done.then(() => undefined) });
    void done.finally(() => this.running.delete(id));
    return { backup: toBackup((await this.repos.backups.find(serverId, id))!), done };
  }

  private async write(id: number, serverId: number, file: string, withMissions: boolean, signal: AbortSignal): Promise<Backup> {
    const manifestFile = join(this.dirOf(serverId), `.manifest-${id}.json`);
    let published = 0;
    const progress = (bytes: number) => {
      if (bytes - published < PROGRESS_STEP) return;
      published = bytes;
      this.events.publish({ type: 'backup', server_id: serverId, data: { backup_id: id, status: 'running', bytes, error: null } });
    };
    try {
      const server = await this.servers.row(serverId);
      const declared = await this.partsOf(server);
      const excluded = server.backup_exclude ?? [];
      const parts = await choose(
        declared.filter((p) => !p.missions || withMissions).map((p) => ({ ...p, exclude: [...(p.exclude ?? []), ...excluded] })),
      );
      const { manifest, shown } = await this.manifest(
        serverId,
        parts.map((p) => ({ name: p.name, path: p.root })),
      );
      await mkdir(this.dirOf(serverId), { recursive: true, mode: 0o700 });
      await writeFile(manifestFile, JSON.stringify(manifest, null, 2), { mode: 0o600 });
      const result = await writeArchive(parts, manifestFile, join(this.dirOf(serverId), file), progress, signal);
      shown.parts = parts.map((p) => ({ name: p.name, path: p.root, files: result.files[p.name] ?? 0 }));
      await this.repos.backups.update(id, {
        status: 'done',
        size_bytes: result.size,
        sha256: result.sha256,
        finished_at: isoNow(this.clock),
        manifest: shown,
      });
      this.events.publish({
        type: 'backup',
        server_id: serverId,
        data: { backup_id: id, status: 'done', bytes: result.size, error: null },
      });
      void this.outbox.emitAbout('backup.completed', serverId, { backup_id: id, bytes: result.size });
      await this.prune(serverId);
    } catch (err) {
      const reason = signal.aborted
        ? 'the service stopped while it was written'
        : (err as NodeJS.ErrnoException).code === 'ENOSPC'
          ? 'the disk is full'
          : (err as Error).message;
      this.logger.warn({ serverId, backupId: id, err: (err as Error).message }, 'backup failed');
      // Cleaned up before the failure is told: whoever reads `failed` finds nothing half-written.
      const untold = (what: string) => (cleanupErr: unknown) => this.logger.error({ serverId, backupId: id, err: cleanupErr }, what);
      await rm(manifestFile, { force: true }).catch(untold('the manifest of a failed backup stays'));
      const failed = { status: 'failed' as const, error: reason.slice(0, 500), finished_at: isoNow(this.clock) };
      await this.audit
        .inTransaction(async (trx) => {
          await this.repos.backups.update(id, failed, trx);
          await this.audit.record(trx, {
            serverId,
            type: 'backup_failed',
            actor: SYSTEM_ACTOR,
            target: { kind: 'backup', id, name: file },
            detail: { backup_id: id, reason },
          });
        })
        // The failure is still told (the event below); the row stays `running` until the next start marks it.
        .catch(untold('the failed backup could not be marked failed, nor its entry recorded'));
      this.events.publish({ type: 'backup', server_id: serverId, data: { backup_id: id, status: 'failed', bytes: 0, error: reason } });
    } finally {
      await rm(manifestFile, { force: true });
    }
    return toBackup((await this.repos.backups.find(serverId, id))!);
  }

  /** The manifest in the archive (the secrets masked, and sealed for a restore: secrets.ts), and as shown (masked). */
  private async manifest(serverId: number, parts: { name: string; path: string }[]) {
    const server = await this.servers.row(serverId);
    const adapter = await this.servers.adapterOf(serverId);
    const sections = await this.config.effectiveConfig(server);
    const schemas = adapter.capabilities.config_generator?.sections ?? {};
    const manager = adapter.capabilities.mod_manager;
    const enabled = manager ? enabledModsOf(sections[manager.enabled.section]?.[manager.enabled.field]) : [];
    const mods = await Promise.all(
      enabled.map(async (m) => {
        const described = manager?.describeMod?.(join(manager.modDirectory(serverContext(server, this.settings.dataDir)), m.name));
        const unread = (err: unknown) =>
          void this.logger.warn({ serverId, mod: m.name, err }, 'no Workshop id read for the mod; backed up without it');
        return { ...m, workshop_id: (await described?.catch(unread))?.workshop_id ?? null };
      }),
    );
    const { id, name, game_type, exe_path, game_port, rcon_port, auto_restart, max_restarts, headless_clients, backup_keep } = server;
    const base = {
      garrison_version: SERVICE_VERSION,
      created_at: isoNow(this.clock),
      server_running: ACTIVE_STATUSES.includes(server.status),
      server: { id, name, game_type, exe_path, game_port, rcon_port, auto_restart, max_restarts, headless_clients, backup_keep },
      mods,
      parts: parts.map((p) => ({ ...p, files: 0 })),
    };
    return {
      manifest: { ...base, ...sealedConfig(this.settings, schemas, sections) },
      shown: { ...base, config_sections: maskSections(schemas, sections) },
    };
  }

  /** Automatic backups past the server's `backup_keep` go, oldest first; locked and manual ones never. */
  private async prune(serverId: number): Promise<void> {
    const server = await this.servers.row(serverId);
    for (const row of await this.repos.backups.prunable(serverId, server.backup_keep)) {
      await rm(join(this.dirOf(serverId), row.file), { force: true });
      await this.repos.backups.delete(row.id);
    }
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
