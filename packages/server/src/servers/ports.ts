import { ApiError } from '@garrison/core';
import type { ServerRepository } from '../db/repositories/servers.js';

/** Refuses ports that another server of the same node (host) already uses for its game or its remote admin. */
export async function assertPortsFree(
  servers: ServerRepository,
  ports: { game_port: number; rcon_port: number },
  nodeId: string,
  exceptServerId?: number,
) {
  if (ports.game_port === ports.rcon_port) {
    throw new ApiError('PORT_IN_USE', `game_port and rcon_port must differ (both ${ports.game_port})`);
  }
  const wanted = [ports.game_port, ports.rcon_port];
  const clash = await servers.clash(wanted, nodeId, exceptServerId);
  if (clash) {
    const port = wanted.find((p) => p === clash.game_port || p === clash.rcon_port);
    throw new ApiError('PORT_IN_USE', `port ${port} is already used by server ${clash.id} (${clash.name})`);
  }
}
