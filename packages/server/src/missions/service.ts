import type { IncomingMessage } from 'node:http';
import { unlink } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { ApiError, type MissionManager, type RotationEntry as RotationEntrySchema, type Static } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import { ServerService } from '../servers/service.js';
import { ConfigService } from '../config/service.js';
import { fileInFolder, filesInFolder } from '../files/in-folder.js';
import { keepFile, receiveFile } from './upload.js';

type RotationEntry = Static<typeof RotationEntrySchema>;

/** Mission files in the game's missions folder, and the rotation kept in the config. */
@injectable()
export class MissionService {
  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
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
      } catch {
        continue; // a file the game would not load either
      }
      missions.push({ name: parsed.name, filename: file.name, size_bytes: file.size, terrain: parsed.terrain });
    }
    return { server_id: serverId, total: missions.length, missions };
  }

  async upload(serverId: number, req: IncomingMessage) {
    const { manager, dir } = await this.manager(serverId);
    const received = await receiveFile(req, dir, this.settings.missionUploadLimitBytes, (filename) => {
      // A leading dot would hide the file, and is how this service names its temporary files.
      if (filename.startsWith('.')) throw new ApiError('ADAPTER_ERROR', `a mission file name cannot start with a dot: ${filename}`);
      return manager.parseMissionFilename(filename);
    });
    const parsed = received.accepted;
    await keepFile(received, dir);
    return { filename: received.filename, mission_name: parsed.name, terrain: parsed.terrain, file_size: received.size };
  }

  async delete(serverId: number, filename: string): Promise<void> {
    const { manager, dir } = await this.manager(serverId);
    const path = await fileInFolder(dir, filename, manager.missionExtension);
    const name = filename.slice(0, -manager.missionExtension.length);
    const { missions } = await this.rotation(serverId);
    if (missions.some((m) => m.name.toLowerCase() === name.toLowerCase())) {
      throw new ApiError('MISSION_IN_ROTATION', `${filename} is in the mission rotation; take it out first`);
    }
    await unlink(path).catch(() => {
      throw new ApiError('NOT_FOUND', `no mission file ${JSON.stringify(filename)}`);
    });
  }

  async rotation(serverId: number): Promise<{ missions: RotationEntry[]; config_version: number }> {
    const { manager } = await this.manager(serverId);
    const section = await this.config.readSection(serverId, manager.rotation.section);
    return { missions: (section[manager.rotation.field] as RotationEntry[]) ?? [], config_version: section._meta.config_version };
  }

  /** Replaces the rotation through the config section it lives in: its version guards the change. */
  async setRotation(serverId: number, missions: RotationEntry[], configVersion: number) {
    const { manager } = await this.manager(serverId);
    try {
      const updated = await this.config.update(serverId, manager.rotation.section, { [manager.rotation.field]: missions, config_version: configVersion });
      return { missions: updated[manager.rotation.field] as RotationEntry[], config_version: updated._meta.config_version };
    } catch (err) {
      // Not a config section PUT: a rotation the game would refuse is a plain validation error here.
      if (err instanceof ApiError && err.code === 'INVALID_CONFIG') throw new ApiError('VALIDATION_ERROR', err.message);
      throw err;
    }
  }
}
