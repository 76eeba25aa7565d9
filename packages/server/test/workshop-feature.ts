import { ApiError, defineEndpoint, Id, Type } from '@garrison/core';
import type { FeatureModule } from '../src/modules/feature-module.js';
import { WorkshopService } from '../src/steam/workshop/service.js';

/**
 * Stands for the Workshop download job until it is wired (it needs the Steam account's SteamCMD runs):
 * resolves and queues the items asked for, as `POST /servers/{id}/workshop` will, then installs each as
 * that job will once SteamCMD has downloaded it (the test lays the files out as SteamCMD leaves them).
 */
const installTestItems = defineEndpoint({
  operationId: 'installTestWorkshopItems',
  method: 'POST',
  path: '/test-workshop/{server_id}',
  tag: 'test',
  summary: 'Resolve, queue and install downloaded Workshop items',
  access: 'admin',
  scope: 'servers:write',
  params: Type.Object({ server_id: Id }),
  body: Type.Object({ items: Type.Optional(Type.Array(Type.String())), collection: Type.Optional(Type.String()) }),
  status: 200,
  response: Type.Object({ installed: Type.Array(Type.String()), failed: Type.Array(Type.String()) }),
});

export const workshopTestFeature: FeatureModule = {
  name: 'test-workshop',
  needs: ['workshop'],
  endpoints: [installTestItems],
  routes: (routes, c) =>
    routes.implement(installTestItems, async ({ params, body }) => {
      const workshop = c.resolve(WorkshopService);
      const resolved = await workshop.resolve(params.server_id, body);
      await workshop.queue(params.server_id, resolved);
      await workshop.markDownloading(
        params.server_id,
        resolved.items.map((i) => i.workshop_id),
      );
      const installed: string[] = [];
      const failed = resolved.refused.map((r) => r.workshop_id);
      for (const item of resolved.items) {
        try {
          await workshop.installDownloaded(params.server_id, item.workshop_id);
          installed.push(item.workshop_id);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          failed.push(item.workshop_id);
        }
      }
      return { installed, failed };
    }),
};
