import { ApiError, type AdapterDefinition } from '@garrison/core';
import type { ServerRepository } from '../db/repositories/servers.js';

export interface ServerPorts {
  game_port: number;
  rcon_port: number;
}

/** Whether the game takes remote admin on its game port: then the record's `rcon_port` is the game port. */
export function remoteAdminOnGamePort(adapter: AdapterDefinition): boolean {
  return adapter.capabilities.remote_admin?.port === 'game';
}

/**
 * The record's ports from a request: for a game that takes remote admin on its game port, that port
 * (another one given is refused); otherwise the one given, or the game port + 3.
 */
export function recordPorts(
  adapter: AdapterDefinition,
  game_port: number,
  rcon_port: number | null | undefined,
  field = 'rcon_port',
): ServerPorts {
  if (remoteAdminOnGamePort(adapter)) {
    if (rcon_port != null && rcon_port !== game_port)
      throw new ApiError(
        'VALIDATION_ERROR',
        `field '${field}': this game takes remote admin on its game port (${game_port}); leave it out`,
      );
    return { game_port, rcon_port: game_port };
  }
  const ports = { game_port, rcon_port: rcon_port ?? game_port + 3 };
  if (ports.rcon_port > 65535)
    throw new ApiError('VALIDATION_ERROR', `rcon_port defaults to game_port + 3 = ${ports.rcon_port}, above 65535; give rcon_port`);
  return ports;
}

/**
 * Refuses ports that another server of the same node (host) already uses for its game or its remote admin.
 * `shared`: the game takes remote admin on its game port, so the two are one.
 */
export async function assertPortsFree(
  servers: ServerRepository,
  ports: ServerPorts,
  nodeId: string,
  { exceptServerId, shared = false }: { exceptServerId?: number; shared?: boolean } = {},
) {
  if (!shared && ports.game_port === ports.rcon_port) {
    throw new ApiError('PORT_IN_USE', `game_port and rcon_port must differ (both ${ports.game_port})`);
  }
  const wanted = [...new Set([ports.game_port, ports.rcon_port])];
  const clash = await servers.clash(wanted, nodeId, exceptServerId);
  if (clash) {
    const port = wanted.find((p) => p === clash.game_port || p === clash.rcon_port);
    throw new ApiError('PORT_IN_USE', `port ${port} is already used by server ${clash.id} (${clash.name})`);
  }
}
