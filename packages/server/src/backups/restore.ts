import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  IDLE_STATUSES,
  TypeCompiler,
  sectionDefaults,
  type Actor,
  type BackupPart,
  type TObject,
  ifMissing,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Clock } from '../jobs/clock.js';
import type { BackupSettings } from './settings.js';
import type { SecretSettings } from '../auth/tokens.js';
import type { Logger } from 'pino';
import { ServerService } from '../servers/service.js';
import { ServerLocks } from '../servers/locks.js';
import { ConfigService } from '../config/service.js';
import { AuditService } from '../audit/service.js';
import { BackupService } from './service.js';
import { checkArchive, entriesOf, extractFile, extractPart, sha256Of } from './archive.js';
import { unsealedConfig } from './secrets.js';
import { renameExtracted } from './renames.js';

interface Manifest {
  config_sections: Record<string, Record<string, unknown>>;
  sealed_secrets?: unknown;
  parts: { name: string; path: string }[];
}
interface Swap {
  target: string;
  saved: string | null;
}

/**
 * Puts a backup back, on a stopped server only (under its lock, so no start races it): the archive's
 * checksum first, then each part extracted beside where it goes and swapped in entry by entry by
 * renames; its config sections written back (each a new version). Whatever fails on the way, what was
 * swapped is swapped back: a failed restore leaves the server as it was. Before anything is written, the
 * archive's headers are read: too many entries, too many bytes (settings), or an entry of a type a
 * restore does not write refuse it.
 */
@injectable()
export class BackupRestore {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Settings) private readonly settings: BackupSettings & SecretSettings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(BackupService) private readonly backups: BackupService,
  ) {}

  restore(serverId: number, backupId: number, actor: Actor): Promise<{ message: string }> {
    return this.locks.run(serverId, async () => {
      const server = await this.servers.row(serverId);
      if (!IDLE_STATUSES.includes(server.status))
        throw new ApiError('SERVER_NOT_STOPPED', `server ${serverId} is ${server.status}; stop it before restoring`);
      const row = await this.backups.row(serverId, backupId);
      if (row.status !== 'done') throw new ApiError('CONFLICT', `backup ${backupId} is ${row.status}`);
      const file = join(this.backups.dirOf(serverId), row.file);
      const sum = await sha256Of(file).catch(ifMissing(null));
      if (sum === null) throw new ApiError('NOT_FOUND', `the archive of backup ${backupId} is gone`);
      if (sum !== row.sha256)
        throw new ApiError('VALIDATION_ERROR', `the archive of backup ${backupId} is damaged: its SHA-256 is ${sum}, not ${row.sha256}`);

      const adapter = await this.servers.adapterOf(serverId);
      const parts = await this.backups.partsOf(server);
      const work = `.restore-${backupId}-${this.clock.now().toString(36)}`;
      const swaps: Swap[] = [];
      let warning: string | null;
      try {
        const limits = { maxBytes: this.settings.restoreMaxBytes, maxFiles: this.settings.restoreMaxFiles };
        await checkArchive(file, limits, [this.backups.dirOf(serverId), ...parts.map((p) => dirname(p.root))]).catch((err: Error) => {
          throw new ApiError('VALIDATION_ERROR', `backup ${backupId} was not restored, and nothing was changed: ${err.message}`);
        });
        const manifest = await this.readManifest(file, join(this.backups.dirOf(serverId), work));
        const unsealed = unsealedConfig(this.settings, manifest, await this.config.effectiveConfig(server));
        warning = unsealed.warning;
        const sections = this.checkedSections(adapter.capabilities.config_generator?.sections ?? {}, unsealed.sections);
        for (const part of parts.filter((p) => manifest.parts.some((m) => m.name === p.name))) {
          const into = join(dirname(part.root), `${work}-${basename(part.root)}`);
          await extractPart(file, part.name, into);
          if (part.rename && (await renameExtracted(into, part.rename)) > 0)
            this.logger.info(
              { serverId, backupId, part: part.name },
              "backup made before the server had folders of its own: its files are put back under the server's own names",
            );
          await mkdir(part.root, { recursive: true });
          for (const entry of await entriesOf(into))
            await this.swap(
              join(into, entry),
              join(part.root, entry),
              join(dirname(part.root), `${work}-old-${basename(part.root)}`),
              swaps,
            );
        }
        await this.config.restoreSections(serverId, sections, actor);
      } catch (err) {
        await this.undo(swaps);
        if (err instanceof ApiError) throw err;
        throw new ApiError(
          'VALIDATION_ERROR',
          `backup ${backupId} could not be restored, and nothing was changed: ${(err as Error).message}`,
          { cause: err },
        );
      } finally {
        await this.cleanUp(parts, work, serverId);
      }
      await this.audit.recordAlone({
        serverId,
        type: 'backup_restored',
        actor,
        detail: { backup_id: backupId, ...(warning ? { passwords: 'kept' } : {}) },
      });
      if (warning) this.logger.warn({ serverId, backupId }, `backup restored: ${warning}`);
      return {
        message:
          `backup ${backupId} restored; the server's files and config are as they were ` +
          `on ${row.created_at}${warning ? `, except that ${warning}` : ''}`,
      };
    });
  }

  private async readManifest(file: string, into: string): Promise<Manifest> {
    const manifest = JSON.parse((await extractFile(file, 'manifest.json', into)) ?? 'null') as Manifest | null;
    if (!manifest?.parts || !manifest.config_sections) throw new Error('the archive holds no manifest');
    return manifest;
  }

  /** The sections of the manifest this game still has, each as the schema takes it now (a section it no longer takes stops the restore). */
  private checkedSections(
    schemas: Record<string, TObject>,
    stored: Record<string, Record<string, unknown>>,
  ): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [name, values] of Object.entries(stored)) {
      const schema = schemas[name];
      if (!schema) continue;
      // The RCon port lives on the server record, which a restore leaves as it is.
      const { rcon_port: port, ...data } = { ...sectionDefaults(schema), ...values };
      const error = TypeCompiler.Compile(schema)
        .Errors({ ...data, ...('rcon_port' in schema.properties ? { rcon_port: port } : {}) })
        .First();
      if (error) throw new Error(`its ${name} section no longer fits this version (${error.path}: ${error.message})`);
      out[name] = data;
    }
    return out;
  }

  /** `from` takes the place of `target`; what was there is kept in `oldDir` until the end. */
  private async swap(from: string, target: string, oldDir: string, swaps: Swap[]): Promise<void> {
    await mkdir(oldDir, { recursive: true });
    const saved = join(oldDir, basename(target));
    const had = await rename(target, saved).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    swaps.push({ target, saved: had ? saved : null });
    await rename(from, target);
  }

  private async undo(swaps: Swap[]): Promise<void> {
    for (const { target, saved } of swaps.reverse()) {
      await rm(target, { recursive: true, force: true });
      if (saved) await rename(saved, target);
    }
  }

  private async cleanUp(parts: BackupPart[], work: string, serverId: number): Promise<void> {
    for (const part of parts) {
      await rm(join(dirname(part.root), `${work}-${basename(part.root)}`), { recursive: true, force: true });
      await rm(join(dirname(part.root), `${work}-old-${basename(part.root)}`), { recursive: true, force: true });
    }
    await rm(join(this.backups.dirOf(serverId), work), { recursive: true, force: true });
  }
}
