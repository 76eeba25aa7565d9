import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from '../audit/service.js';
import type { BanService } from './service.js';

export function banRoutes(routes: RouteTable, bans: BanService, audit: AuditService): void {
  routes.implement(endpoints.listBans, async ({ params, query }) => bans.list(params.server_id, query));
  routes.implement(endpoints.createBan, async ({ params, body, principal }) => {
    const ban = await bans.create(params.server_id, body, principal.username);
    void audit.record(params.server_id, 'ban', principal.username, { ban_id: ban.id, guid: ban.guid, ban_type: ban.ban_type, duration_minutes: ban.duration_minutes });
    const { id, server_id, guid, reason, ban_type, expires_at } = ban;
    return { id, server_id, guid, reason, ban_type, expires_at };
  });
  routes.implement(endpoints.revokeBan, async ({ params, principal }) => {
    await bans.revoke(params.server_id, params.ban_id);
    void audit.record(params.server_id, 'unban', principal.username, { ban_id: params.ban_id });
    return { message: `ban ${params.ban_id} revoked` };
  });
}
