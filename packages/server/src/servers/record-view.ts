import { ACTIVE_STATUSES, type ServerDetail, type ServerListItem } from '@garrison/core';
import type { ListRow, ServerRow } from '../db/repositories/index.js';

/*
 * A server as the list and the detail show it, from its record alone: ServerService adds what the config
 * and the files say (glance.ts), the running figures (LiveFigures) and its node's (NodeService).
 */

/** The record's own fields of a list item; what the config and the files say comes from ServerGlance. */
export function toListItem(
  row: ListRow,
): Omit<ServerListItem, 'hostname' | 'max_players' | 'mission' | 'warnings' | 'node_id' | 'node_online'> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    game_type: row.game_type,
    status: row.status,
    pid: row.pid,
    game_port: row.game_port,
    rcon_port: row.rcon_port,
    auto_restart: row.auto_restart,
    max_restarts: row.max_restarts,
    restart_count: row.restart_count,
    headless_clients: row.headless_clients,
    player_count: null,
    cpu_percent: null,
    ram_mb: null,
    started_at: row.started_at,
  };
}

export function toDetail(
  row: ServerRow,
  now: number,
): Omit<ServerDetail, 'hostname' | 'max_players' | 'mission' | 'warnings' | 'node_id' | 'node_online'> {
  const alive = row.started_at && ACTIVE_STATUSES.includes(row.status);
  const uptime = alive ? Math.max(0, Math.floor((now - Date.parse(row.started_at!)) / 1000)) : 0;
  return {
    ...toListItem(row),
    exe_path: row.exe_path,
    uptime_seconds: uptime,
    backup_keep: row.backup_keep ?? 7,
    backup_exclude: row.backup_exclude ?? [],
  };
}
