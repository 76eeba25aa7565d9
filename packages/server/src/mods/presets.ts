import type { IncomingMessage } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  type Actor,
  type LauncherPresetFormat,
  type PresetDiff as PresetDiffSchema,
  type PresetMod,
  type Static,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { DataSettings } from '../db/settings.js';
import { serverDir } from '../servers/context.js';
import { receiveFile } from '../missions/upload.js';
import { ModService } from './service.js';
import { ServerService } from '../servers/service.js';

/** A preset is a page of a few hundred rows; a bigger document is not one. */
const PRESET_LIMIT_BYTES = 1024 * 1024;

export type PresetDiff = Static<typeof PresetDiffSchema>;

/**
 * The game launcher's presets against the server's mods: Workshop entries carry only an id, so each is
 * matched to the installed folder whose own files give that id; local entries by folder name.
 */
@injectable()
export class ModPresets {
  constructor(
    @inject(TOKENS.Settings) private readonly settings: Pick<DataSettings, 'dataDir'>,
    @inject(ModService) private readonly mods: ModService,
    @inject(ServerService) private readonly servers: ServerService,
  ) {}

  private async format(serverId: number): Promise<LauncherPresetFormat> {
    const { manager } = await this.mods.context(serverId);
    if (!manager.launcherPreset) throw new ApiError('NOT_SUPPORTED', "this game's launcher has no presets Garrison reads");
    return manager.launcherPreset;
  }

  /** The preset of a request: its body as it is, or its multipart part `file`; 413 past 1 MiB. */
  async receive(serverId: number, req: IncomingMessage): Promise<string> {
    await this.format(serverId);
    if (/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
      const received = await receiveFile(
        req,
        join(serverDir(this.settings.dataDir, serverId), '.presets'),
        PRESET_LIMIT_BYTES,
        () => undefined,
      );
      try {
        return await readFile(received.tempPath, 'utf8');
      } finally {
        await rm(received.tempPath, { force: true });
      }
    }
    const body = await readBounded(req, PRESET_LIMIT_BYTES);
    if (!body.length) throw new ApiError('VALIDATION_ERROR', 'no preset: send the HTML as the body or as the multipart part "file"');
    return body.toString('utf8');
  }

  async compare(serverId: number, document: string, apply: boolean, actor: Actor): Promise<PresetDiff> {
    const preset = (await this.format(serverId)).parse(document);
    const installed = await this.mods.described(serverId);
    const byId = new Map(installed.filter((m) => m.workshop_id).map((m) => [m.workshop_id!, m.name]));
    const byFolder = new Map(installed.map((m) => [m.name.toLowerCase(), m.name]));
    // A folder named as the preset names the mod, with or without its `@`, any case, brackets and spaces as they are.
    const folderNamed = (name: string | null) =>
      name ? (byFolder.get(name.toLowerCase()) ?? byFolder.get(`@${name}`.toLowerCase())) : undefined;
    const matched: PresetDiff['matched'] = [];
    const missing: PresetDiff['missing'] = [];
    for (const mod of preset.mods) {
      // A Workshop mod by the id its folder's files give; one copied in without them, by its name.
      const folder = mod.workshop_id
        ? (byId.get(mod.workshop_id) ?? folderNamed(mod.name.trim()))
        : (folderNamed(mod.local_folder) ?? folderNamed(mod.name.trim()));
      const id = mod.workshop_id ? { id: mod.workshop_id } : {};
      if (folder) matched.push({ ...id, name: mod.name, folder });
      else missing.push({ ...id, name: mod.name });
    }
    const inPreset = new Set(matched.map((m) => m.folder));
    const enabled = installed.filter((m) => m.enabled);
    if (apply) {
      // The preset is what players load: it sets the client mods; the server's own mods stay as they are.
      const serverMods = enabled
        .filter((m) => m.is_server_mod && !inPreset.has(m.name))
        .map((m) => ({ name: m.name, is_server_mod: true }));
      const clientMods = [...new Set(matched.map((m) => m.folder))].map((name) => ({ name, is_server_mod: false }));
      await this.mods.setEnabled(serverId, [...clientMods, ...serverMods], actor);
    }
    // The comparison is with the server as it is when the answer leaves: after an apply, as it applied.
    const now = apply ? (await this.mods.described(serverId)).filter((m) => m.enabled) : enabled;
    const extra = now.filter((m) => !m.is_server_mod && !inPreset.has(m.name)).map((m) => ({ folder: m.name }));
    return { preset: { kind: preset.kind, name: preset.name }, matched, missing, extra, dlc: preset.dlc, applied: apply };
  }

  /** The enabled client mods as a preset: Workshop ids from their folders, the others as local mods. */
  async export(serverId: number): Promise<{ filename: string; mediaType: string; content: string }> {
    const format = await this.format(serverId);
    const row = await this.servers.row(serverId);
    const mods: PresetMod[] = (await this.mods.described(serverId))
      .filter((m) => m.enabled && !m.is_server_mod)
      .map((m) => ({ name: m.display_name ?? m.name, workshop_id: m.workshop_id ?? null, local_folder: m.workshop_id ? null : m.name }));
    const base = row.name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || `server-${serverId}`;
    return { filename: `${base}${format.extension}`, mediaType: format.mediaType, content: format.render(row.name, mods) };
  }
}

/**
 * The body, up to `limit` bytes (413 past it). The rest of a body too large is left to the HTTP layer,
 * which drops it or closes the connection: the request is never destroyed under its own answer.
 */
function readBounded(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.resume(); // what is left is read and dropped
      reject(new ApiError('FILE_TOO_LARGE', `a preset has at most ${limit} bytes`));
    };
    const onEnd = () => (stop(), resolve(Buffer.concat(chunks)));
    const onError = (err: Error) => (stop(), reject(new ApiError('VALIDATION_ERROR', `the upload was cut off: ${err.message}`)));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}
