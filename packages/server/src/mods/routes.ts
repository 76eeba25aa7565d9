import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from '../audit/service.js';
import type { ModService } from './service.js';

export function modRoutes(routes: RouteTable, mods: ModService, audit: AuditService): void {
  routes.implement(endpoints.listMods, async ({ params }) => mods.list(params.server_id));
  routes.implement(endpoints.setEnabledMods, async ({ params, body, principal }) => {
    const enabled = await mods.setEnabled(params.server_id, body.mods);
    void audit.record(params.server_id, 'config_changed', principal.username, { mods: enabled.map((m) => m.name) });
    return { message: `${enabled.length} mods enabled; they load at the next start`, enabled_mods: enabled };
  });
}
