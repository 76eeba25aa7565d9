import { readdir, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { ApiError, enabledModsOf, type Actor, type EnabledMod, type Mod, type ModManager, type Static, ifMissing } from '@garrison/core';
import { ServerService } from '../servers/service.js';
import { ConfigService } from '../config/service.js';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';

export type ModEntry = Static<typeof Mod>;

const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Names in the order people read them: case aside, then (names equal but for case) by code point; the same on every host's locale. */
const byName = (a: string, b: string) => order(a.toLowerCase(), b.toLowerCase()) || order(a, b);

/** Mod folders on disk, and the enabled list kept in the config (migrated from the older bare list on read). */
@injectable()
export class ModService {
  constructor(
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ConfigService) private readonly config: ConfigService,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
  ) {}

  async context(serverId: number): Promise<{ manager: ModManager; dir: string }> {
    const { capability: manager, ctx } = await this.servers.withCapability(serverId, 'mod_manager');
    return { manager, dir: manager.modDirectory(ctx) };
  }

  private async folders(manager: ModManager, dir: string): Promise<string[]> {
    const entries = await readdir(dir, { withFileTypes: true }).catch(ifMissing([]));
    // A link to a folder is a mod folder too (a Workshop item is linked to its download); a dangling one is not.
    const isFolder = async (e: Dirent) =>
      e.isDirectory() || (e.isSymbolicLink() && Boolean((await stat(join(dir, e.name)).catch(ifMissing(null)))?.isDirectory()));
    const mods = entries.filter((e) => manager.isModFolder(e.name));
    const folders = await Promise.all(mods.map(async (e) => ((await isFolder(e)) ? [e.name] : [])));
    // Case does not order them (`@ace` before `@CUP`): as people read a list of names.
    return folders.flat().sort(byName);
  }

  private async enabled(serverId: number, manager: ModManager): Promise<{ mods: EnabledMod[]; version: number }> {
    const section = await this.config.readSection(serverId, manager.enabled.section);
    return { mods: enabledModsOf(section[manager.enabled.field]), version: section._meta.config_version };
  }

  async list(serverId: number) {
    const mods = await this.described(serverId);
    return { server_id: serverId, enabled_count: mods.filter((m) => m.enabled).length, mods };
  }

  /** Each mod folder, whether it is enabled, and what it says of itself (its Workshop id and name), when it says. */
  async described(serverId: number): Promise<ModEntry[]> {
    const { manager, dir } = await this.context(serverId);
    const [folders, { mods: enabled }, items] = await Promise.all([
      this.folders(manager, dir),
      this.enabled(serverId, manager),
      this.repos.workshopItems.ofServer(serverId),
    ]);
    const byName = new Map(enabled.map((m) => [m.name, m]));
    // The folders Garrison linked from the Workshop (steam/workshop): their id is the item's, whatever their files say.
    const fromWorkshop = new Map(items.filter((i) => i.folder !== null).map((i) => [i.folder!, i.workshop_id]));
    return Promise.all(
      folders.map(async (name) => {
        const about = (await manager.describeMod?.(join(dir, name))) ?? null; // an unreadable mod.cpp says nothing; a failing disk is told
        const workshopId = fromWorkshop.get(name) ?? about?.workshop_id;
        return {
          name,
          folder_path: join(dir, name),
          enabled: byName.has(name),
          is_server_mod: byName.get(name)?.is_server_mod ?? false,
          ...(workshopId ? { workshop_id: workshopId } : {}),
          ...(about?.display_name ? { display_name: about.display_name } : {}),
          source: fromWorkshop.has(name) ? ('workshop' as const) : ('local' as const),
        };
      }),
    );
  }

  /** Replaces the enabled list; a config change landing between the read and the write gives 409 `VERSION_CONFLICT`. */
  async setEnabled(serverId: number, mods: EnabledMod[], actor: Actor): Promise<EnabledMod[]> {
    const { manager, dir } = await this.context(serverId);
    const folders = new Set(await this.folders(manager, dir));
    const seen = new Set<string>();
    for (const [i, mod] of mods.entries()) {
      const problem = manager.modNameProblem?.(mod.name);
      if (problem) throw new ApiError('VALIDATION_ERROR', `mods[${i}].name: ${JSON.stringify(mod.name)} ${problem}`);
      if (!folders.has(mod.name))
        throw new ApiError(
          'VALIDATION_ERROR',
          `unknown mod ${JSON.stringify(mod.name)}: no such mod folder; known: ${[...folders].join(', ') || 'none'}`,
        );
      if (seen.has(mod.name)) throw new ApiError('VALIDATION_ERROR', `mod ${JSON.stringify(mod.name)} is listed twice`);
      seen.add(mod.name);
    }
    const { version } = await this.enabled(serverId, manager);
    try {
      const updated = await this.config.update(
        serverId,
        manager.enabled.section,
        { [manager.enabled.field]: mods, config_version: version },
        actor,
        { mods: mods.map((m) => m.name) },
      );
      return enabledModsOf(updated[manager.enabled.field]);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFIG_VERSION_CONFLICT') {
        throw new ApiError('VERSION_CONFLICT', 'the config changed while the mods were being saved; read them again and retry', {
          extra: err.extra,
        });
      }
      if (err instanceof ApiError && err.code === 'INVALID_CONFIG') throw new ApiError('VALIDATION_ERROR', err.message);
      throw err;
    }
  }
}
