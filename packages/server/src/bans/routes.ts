import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { BanService } from './service.js';

export function banRoutes(routes: RouteTable, bans: BanService): void {
  routes.implement(endpoints.listBans, async ({ params, query }) => bans.list(params.server_id, query));
  routes.implement(endpoints.createBan, async ({ params, body, actor }) => {
    const { id, server_id, guid, reason, ban_type, expires_at } = await bans.create(params.server_id, body, actor);
    return { id, server_id, guid, reason, ban_type, expires_at };
  });
  routes.implement(endpoints.revokeBan, async ({ params, actor }) => {
    await bans.revoke(params.server_id, params.ban_id, actor);
    return { message: `ban ${params.ban_id} revoked` };
  });
}
