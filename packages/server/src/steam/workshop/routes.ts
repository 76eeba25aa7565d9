import { endpoints } from '@garrison/core';
import type { RouteTable } from '../../http/route-table.js';
import type { WorkshopService } from './service.js';
import type { WorkshopUpdateCheck } from './update-check.js';

export function workshopRoutes(routes: RouteTable, workshop: WorkshopService, check: WorkshopUpdateCheck): void {
  routes.implement(endpoints.listWorkshopItems, async ({ params }) => workshop.list(params.server_id));
  routes.implement(endpoints.deleteWorkshopItem, async ({ params, actor }) => {
    const removed = await workshop.remove(params.server_id, params.workshop_id, actor);
    const keys = removed.keys.length ? ` and the keys it brought that no other mod needs (${removed.keys.join(', ')})` : '';
    return { message: `Workshop item ${removed.workshop_id} removed: its folder ${removed.folder ?? '(none)'}${keys}` };
  });
  routes.implement(endpoints.checkWorkshopItems, async ({ params }) => {
    const result = await check.run(params.server_id);
    const newly = result.newlyOutdated.get(params.server_id) ?? [];
    return { checked: result.checked, newly_outdated: newly.map((r) => r.workshop_id), items: await workshop.list(params.server_id) };
  });
}
