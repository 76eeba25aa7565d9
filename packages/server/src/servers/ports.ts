import { ApiError } from '@garrison/core';
import type { Models } from '../db/models/index.js';

/** Refuses ports that another server already uses for its game or its remote admin. */
export async function assertPortsFree(models: Models, ports: { game_port: number; rcon_port: number }, exceptServerId?: number) {
  if (ports.game_port === ports.rcon_port) {
    throw new ApiError('PORT_IN_USE', `game_port and rcon_port must differ (both ${ports.game_port})`);
  }
  const wanted = [ports.game_port, ports.rcon_port];
  const query = models.Server.query()
    .select('id', 'name', 'game_port', 'rcon_port')
    .where((q) => q.whereIn('game_port', wanted).orWhereIn('rcon_port', wanted));
  if (exceptServerId !== undefined) query.whereNot('id', exceptServerId);
  const clash = await query.first();
  if (clash) {
    const port = wanted.find((p) => p === clash.game_port || p === clash.rcon_port);
    throw new ApiError('PORT_IN_USE', `port ${port} is already used by server ${clash.id} (${clash.name})`);
  }
}
