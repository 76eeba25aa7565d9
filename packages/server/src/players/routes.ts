import { ApiError, endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from '../audit/service.js';
import type { BanService } from '../bans/service.js';
import type { PlayerService } from './service.js';

export function playerRoutes(routes: RouteTable, players: PlayerService, bans: BanService, audit: AuditService): void {
  routes.implement(endpoints.listPlayers, async ({ params }) => players.list(params.server_id));
  routes.implement(endpoints.playerHistory, async ({ params, query }) => players.history(params.server_id, query));
  routes.implement(endpoints.kickPlayer, async ({ params, body, principal }) => {
    const player = await players.kick(params.server_id, params.slot_id, body.reason);
    void audit.record(params.server_id, 'kick', principal.username, { slot_id: params.slot_id, name: player.name, reason: body.reason });
    return { message: `kicked ${player.name}` };
  });
  routes.implement(endpoints.banPlayer, async ({ params, body, principal }) => {
    const player = await players.playerInSlot(params.server_id, params.slot_id);
    if (!player.guid) throw new ApiError('VALIDATION_ERROR', `the game has not reported the GUID of ${player.name} yet; try again in a moment`);
    const ban = await bans.create(params.server_id, { player_uid: player.guid, ban_type: 'GUID', reason: body.reason, duration_minutes: body.duration_minutes ?? 0, name: player.name }, principal.username);
    void audit.record(params.server_id, 'ban', principal.username, { slot_id: params.slot_id, name: player.name, guid: player.guid, duration_minutes: ban.duration_minutes });
    // The ban file is reloaded already; the kick puts the player out now. A player who left meanwhile is fine.
    await players.kick(params.server_id, params.slot_id, body.reason || 'banned').catch(() => {});
    return ban;
  });
}
