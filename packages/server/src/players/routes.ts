import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { PlayerService } from './service.js';

export function playerRoutes(routes: RouteTable, players: PlayerService): void {
  // Who each player is and his address, for those who may kick or ban them: an admin, or an admin's key that moderates.
  routes.implement(endpoints.listPlayers, async ({ params, principal }) =>
    players.list(params.server_id, principal.role === 'admin' && (!principal.key || principal.key.scopes.includes('players:moderate'))),
  );
  routes.implement(endpoints.playerHistory, async ({ params, query }) => players.history(params.server_id, query));
  routes.implement(endpoints.kickPlayer, async ({ params, body, actor }) => {
    const player = await players.kick(params.server_id, params.slot_id, body.reason, actor);
    return { message: `kicked ${player.name}` };
  });
  routes.implement(endpoints.banPlayer, async ({ params, body, actor }) => players.ban(params.server_id, params.slot_id, body, actor));
}
