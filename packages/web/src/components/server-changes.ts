import type { EventHandlers } from '@garrison/sdk';
import type { ServerListItem } from '@garrison/core';
import { RUNNING } from './server-actions.js';

type ServerFields = Pick<
  ServerListItem,
  'status' | 'pid' | 'started_at' | 'cpu_percent' | 'ram_mb' | 'player_count' | 'mission' | 'warnings'
>;
/** A live event's change to a server's record (the list's item or the page's record), applied to it as it is. */
export type ServerChange = <T extends ServerFields>(server: T) => T;

/**
 * `restart_needed` says that the running process read an older config. A server with no process left
 * needs no restart, and a process that has just started read the config as it is: either way the
 * warning goes at once (the service says the same at the next read; a config saved meanwhile is read
 * again through its `config_changed` entry).
 */
function withoutStaleRestart<T extends ServerFields>(server: T, status: T['status'], startedAt: string | null): T['warnings'] {
  const newProcess = startedAt !== null && startedAt !== server.started_at;
  return RUNNING.has(status) && !newProcess ? server.warnings : server.warnings.filter((w) => w !== 'restart_needed');
}

/**
 * The live events that change a server's record (status, figures, player count), as changes to merge
 * into it; a server that stops has no figures left.
 */
export function serverChanges(onChange: (serverId: number, change: ServerChange) => void): EventHandlers {
  const set =
    (fields: Partial<ServerFields>): ServerChange =>
    (s) => ({ ...s, ...fields });
  return {
    server_status: ({ server_id, data }) =>
      onChange(server_id, (s) => ({
        ...s,
        status: data.status,
        pid: data.pid,
        started_at: data.started_at,
        warnings: withoutStaleRestart(s, data.status, data.started_at),
        ...(RUNNING.has(data.status) ? {} : { cpu_percent: null, ram_mb: null, player_count: null, mission: null }),
      })),
    metrics: ({ server_id, data }) => onChange(server_id, set({ cpu_percent: data.cpu_percent, ram_mb: data.ram_mb })),
    players: ({ server_id, data }) => onChange(server_id, set({ player_count: data.count })),
    server_mission: ({ server_id, data }) => onChange(server_id, set({ mission: data.mission })),
  };
}
