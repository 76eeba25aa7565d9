import type { IncomingMessage } from 'node:http';
import { unlink } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  type MissionManager,
  type MissionName,
  type RotationEntry as RotationEntrySchema,
  type RotationEntryInput,
  type Static,
  type Actor,
  expectOnly,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { MissionSettings } from './settings.js';
import { ServerService } from '../servers/service.js';
import { ConfigService } from '../config/service.js';
import { AuditService } from '../audit/service.js';
import { fileInFolder, filesInFolder, notFoundIfUnseen } from '../files/in-folder.js';
import { keepFile, receiveFile } from './upload.js';
import { optionsSent, rotationOptionsOf } from './options.js';

type RotationEntry = Static<typeof RotationEntrySchema>;

/** A name refused by the mission rule, as a validation error of the field that carried it. */
function refusedAs(field: string, err: unknown): never {
  if (err instanceof ApiError && err.code === 'ADAPTER_ERROR') throw new ApiError('VALIDATION_ERROR', `${field}: ${err.message}`);
  throw err;
}

/** Mission files in the game's missions folder, and the rotation kept in the config. */
@injectable()
export class MissionService {
  constructor(
    @inject(TOKENS.Settings) private readonly settings: MissionSettings,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private async manager(serverId: number): Promise<{ manager: MissionManager; dir: string }> {
    const { capability: manager, ctx } = await this.servers.withCapability(serverId, 'mission_manager');
    return { manager, dir: manager.missionDirectory(ctx) };
  }

  async list(serverId: number) {
    const { manager, dir } = await this.manager(serverId);
    const missions = [];
    for (const file of await filesInFolder(dir, manager.missionExtension)) {
      let parsed;
      try {
        parsed = manager.parseMissionFilename(file.name);
      } catch (err) {
        expectOnly(err, ApiError);
        continue; // a file the game would not load either
      }
      missions.push({
        name: parsed.name,
        filename: file.name,
        size_bytes: file.size,
        ...partsBeside(parsed, LISTED),
        ...warningOf(parsed),
      });
    }
    return { server_id: serverId, total: missions.length, missions };
  }

  async upload(serverId: number, req: IncomingMessage, actor: Actor) {
    const { manager, dir } = await this.manager(serverId);
    const received = await receiveFile(req, dir, this.settings.missionUploadLimitBytes, (filename) => {
      // A leading dot would hide the file, and is how this service names its temporary files.
      if (filename.startsWith('.')) throw new ApiError('ADAPTER_ERROR', `a mission file name cannot start with a dot: ${filename}`);
      return manager.parseMissionFilename(filename);
    });
    const parsed = received.accepted;
    await keepFile(received, dir);
    await this.audit.recordAlone({
      serverId,
      type: 'mission_uploaded',
      actor,
      detail: { filename: received.filename, file_size: received.size },
    });
    return {
      filename: received.filename,
      mission_name: parsed.name,
      ...partsBeside(parsed, UPLOADED),
      file_size: received.size,
      ...warningOf(parsed),
    };
  }

  async delete(serverId: number, filename: string, actor: Actor): Promise<void> {
    const { manager, dir } = await this.manager(serverId);
    if (!/[/\\\0]/.test(filename)) {
      try {
        manager.parseMissionFilename(filename);
      } catch (err) {
        refusedAs("path parameter 'filename'", err);
      }
    }
    const path = await fileInFolder(dir, filename, manager.missionExtension);
    const name = filename.slice(0, -manager.missionExtension.length);
    const { missions } = await this.rotation(serverId);
    if (missions.some((m) => m.name.toLowerCase() === name.toLowerCase())) {
      throw new ApiError('MISSION_IN_ROTATION', `${filename} is in the mission rotation; take it out first`);
    }
    await unlink(path).catch(notFoundIfUnseen(`no mission file ${JSON.stringify(filename)}`));
    await this.audit.recordAlone({ serverId, type: 'mission_deleted', actor, detail: { filename } });
  }

  async rotation(serverId: number): Promise<{ missions: RotationEntry[]; config_version: number }> {
    const { manager } = await this.manager(serverId);
    const section = await this.config.readSection(serverId, manager.rotation.section);
    return { missions: (section[manager.rotation.field] as RotationEntry[]) ?? [], config_version: section._meta.config_version };
  }

  /**
   * Replaces the rotation through the config section it lives in: its version guards the change. Each
   * name is checked by the mission rule (as the file it names), its options by the game's rotation options.
   */
  async setRotation(serverId: number, entries: Static<typeof RotationEntryInput>[], configVersion: number, actor: Actor) {
    const { manager } = await this.manager(serverId);
    const missions = entries.map((entry, i): RotationEntry => {
      try {
        manager.parseMissionFilename(entry.name + manager.missionExtension);
      } catch (err) {
        refusedAs(`missions[${i}].name`, err);
      }
      const options = rotationOptionsOf(manager, optionsSent(entry), {
        problem: (option) => `missions[${i}]${option === null ? '' : `.${option}`}`,
        path: (option) => `missions.${i}.${option}`,
      });
      return { name: entry.name, ...options };
    });
    try {
      const updated = await this.config.update(
        serverId,
        manager.rotation.section,
        { [manager.rotation.field]: missions, config_version: configVersion },
        actor,
        { rotation: missions.length },
      );
      // Saved all the same (the file may be uploaded next), but said: the game would skip it.
      const installed = new Set((await this.list(serverId)).missions.map((m) => m.name.toLowerCase()));
      const warnings = missions
        .filter((m) => !installed.has(m.name.toLowerCase()))
        .map((m) => `${m.name} is not installed: no ${m.name}${manager.missionExtension} in the missions folder`);
      return { missions: updated[manager.rotation.field] as RotationEntry[], config_version: updated._meta.config_version, warnings };
    } catch (err) {
      // Not a config section PUT: a rotation the game would refuse is a plain validation error here.
      if (err instanceof ApiError && err.code === 'INVALID_CONFIG') throw new ApiError('VALIDATION_ERROR', err.message);
      throw err;
    }
  }
}

const warningOf = (parsed: MissionName) => (parsed.warning ? { warning: parsed.warning } : {});

/** The fields of a listed and of an uploaded mission, which no part of a name may stand in for. */
const LISTED = new Set(['name', 'filename', 'size_bytes', 'warning']);
const UPLOADED = new Set(['filename', 'mission_name', 'file_size', 'warning']);

/**
 * A name's parts beside its fields, where a contract may have them: a part named like
 * one of the answer's own fields is left out rather than put in that field's place.
 */
const partsBeside = (parsed: MissionName, fields: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(parsed.parts).filter(([part]) => !fields.has(part)));
