import { endpoints } from '@garrison/core';
import type { RouteTable } from '../../http/route-table.js';
import type { WorkshopService } from './service.js';
import type { WorkshopUpdateCheck } from './update-check.js';
import type { WorkshopDownloads } from './downloads.js';

export function workshopRoutes(
  routes: RouteTable,
  workshop: WorkshopService,
  check: WorkshopUpdateCheck,
  downloads: WorkshopDownloads,
): void {
  routes.implement(endpoints.addWorkshopItems, async ({ params, body, actor }) => downloads.add(params.server_id, body, actor));
  routes.implement(endpoints.updateWorkshopItems, async ({ params, actor }) => downloads.update(params.server_id, actor));
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
