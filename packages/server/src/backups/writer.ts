import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ACTIVE_STATUSES, SYSTEM_ACTOR, enabledModsOf, type BackupPart } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { BackupSettings } from './settings.js';
import type { SecretSettings } from '../auth/tokens.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { ServerService } from '../servers/service.js';
import { serverContext } from '../servers/context.js';
import { ConfigService } from '../config/service.js';
import { maskSections } from '../config/masking.js';
import { AuditService } from '../audit/service.js';
import { SERVICE_VERSION } from '../system/version.js';
import { choose, writeArchive } from './archive.js';
import { sealedConfig } from './secrets.js';
import { WebhookOutbox } from '../webhooks/outbox.js';

/** Progress events at most once per this many bytes written. */
const PROGRESS_STEP = 4 * 1024 * 1024;

/** One backup to write: its row, the server's backup folder, and the archive's name in it. */
interface BackupJob {
  id: number;
  serverId: number;
  dir: string;
  file: string;
  withMissions: boolean;
}

/**
 * Writes one backup (BackupService starts it in the background): the server's parts and a manifest streamed
 * into the archive, the row marked done (or failed, with nothing half-written left), `backup` events on the
 * way, and the automatic backups past the server's `backup_keep` pruned.
 */
@injectable()
export class BackupWriter {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: BackupSettings & SecretSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** What a backup of this server holds (the game's parts; without any, the server's own folder). */
  async partsOf(server: ServerRow): Promise<BackupPart[]> {
    const ctx = serverContext(server, this.settings.dataDir);
    return (
      (await this.servers.adapterOf(server.id)).capabilities.process_config?.backupParts?.(ctx) ?? [{ name: 'server', root: ctx.serverDir }]
    );
  }

  async write({ id, serverId, dir, file, withMissions }: BackupJob, signal: AbortSignal): Promise<void> {
    const manifestFile = join(dir, `.manifest-${id}.json`);
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
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(manifestFile, JSON.stringify(manifest, null, 2), { mode: 0o600 });
      const result = await writeArchive(parts, manifestFile, join(dir, file), progress, signal);
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
      await this.prune(serverId, dir);
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
  private async prune(serverId: number, dir: string): Promise<void> {
    const server = await this.servers.row(serverId);
    for (const row of await this.repos.backups.prunable(serverId, server.backup_keep)) {
      await rm(join(dir, row.file), { force: true });
      await this.repos.backups.delete(row.id);
    }
  }
}
