import type { EventHandlers } from '@garrison/sdk';
import type { ServerListItem } from '@garrison/core';
import { RUNNING } from './server-actions.js';

type ServerChange = Partial<Pick<ServerListItem, 'status' | 'pid' | 'started_at' | 'cpu_percent' | 'ram_mb' | 'player_count' | 'mission'>>;

/**
 * The live events that change a server's record (status, figures, player count), as changes to merge
 * into it; a server that stops has no figures left.
 */
export function serverChanges(onChange: (serverId: number, change: ServerChange) => void): EventHandlers {
  return {
    server_status: ({ server_id, data }) =>
      onChange(server_id, { status: data.status, pid: data.pid, started_at: data.started_at, ...(RUNNING.has(data.status) ? {} : { cpu_percent: null, ram_mb: null, player_count: null, mission: null }) }),
    metrics: ({ server_id, data }) => onChange(server_id, { cpu_percent: data.cpu_percent, ram_mb: data.ram_mb }),
    players: ({ server_id, data }) => onChange(server_id, { player_count: data.count }),
    server_mission: ({ server_id, data }) => onChange(server_id, { mission: data.mission }),
  };
}
