import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ModService } from './service.js';

export function modRoutes(routes: RouteTable, mods: ModService): void {
  routes.implement(endpoints.listMods, async ({ params }) => mods.list(params.server_id));
  routes.implement(endpoints.setEnabledMods, async ({ params, body, actor }) => {
    const enabled = await mods.setEnabled(params.server_id, body.mods, actor);
    return { message: `${enabled.length} mods enabled; they load at the next start`, enabled_mods: enabled };
  });
}
