import { dirname, relative } from 'node:path';
import { realPathOf } from './game-roots.js';
import type { AdapterDefinition, ServerContext } from '@garrison/core';
import type { ServerRow } from '../db/repositories/servers.js';

type Placed = Pick<ServerRow, 'id' | 'name' | 'exe_path' | 'node_id'>;

/**
 * The installation a server runs: the folder of its executable, as one path whatever way it was written,
 * links followed (a folder reached through a link is the same installation, its files the same files).
 */
export function installationOf(exePath: string): string {
  return realPathOf(dirname(exePath));
}

/** The other servers of the same node that run from the same installation (a host's folders are its own). */
export function sharingWith(
  server: { id?: number; exe_path: string; node_id: string | null },
  others: readonly Placed[],
): Pick<ServerRow, 'id' | 'name'>[] {
  const installation = installationOf(server.exe_path);
  return others
    .filter((o) => o.id !== server.id && o.node_id === server.node_id && installationOf(o.exe_path) === installation)
    .map((o) => ({ id: o.id, name: o.name }));
}

/**
 * The warning an import's plan carries when the installation is another server's too: which server, and
 * what stays shared between them (the folders the game reads from its installation, as the adapter names them).
 */
export function sharingWarning(adapter: AdapterDefinition, exePath: string, others: readonly Pick<ServerRow, 'id' | 'name'>[]): string {
  const exeDir = dirname(exePath);
  const ctx: ServerContext = { server: { id: 0, name: '', exe_path: exePath, game_port: 0, rcon_port: 0 }, serverDir: exeDir, exeDir };
  const folder = (path: string | undefined) =>
    path === undefined ? null : relative(exeDir, path) ? `${relative(exeDir, path)}/` : "the installation's folder";
  const missions = folder(adapter.capabilities.mission_manager?.missionDirectory(ctx));
  const mods = folder(adapter.capabilities.mod_manager?.modDirectory(ctx));
  const shared = [missions && `missions (${missions})`, mods && `mod folders (in ${mods})`].filter(Boolean);
  const names = others.map((o) => `server ${o.id} (${JSON.stringify(o.name)})`).join(', ');
  return (
    `shares_installation: ${names} ${others.length > 1 ? 'run' : 'runs'} from this installation too; this server gets its own ` +
    `profile and config folders${shared.length ? `, but ${shared.join(' and ')} stay shared, as the game reads them` : ''}`
  );
}
