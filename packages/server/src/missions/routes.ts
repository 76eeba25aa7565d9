import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { MissionService } from './service.js';
import type { MissionPlay } from './play.js';

export function missionRoutes(routes: RouteTable, missions: MissionService, play: MissionPlay): void {
  routes.implement(endpoints.listMissions, async ({ params }) => missions.list(params.server_id));
  for (const endpoint of [endpoints.uploadMission, endpoints.uploadMissionAlias]) {
    routes.implement(endpoint, async ({ params, ctx, actor }) => missions.upload(params.server_id, ctx.req, actor));
  }
  routes.implement(endpoints.getRotation, async ({ params }) => missions.rotation(params.server_id));
  routes.implement(endpoints.setRotation, async ({ params, body, actor }) =>
    missions.setRotation(params.server_id, body.missions, body.config_version, actor),
  );
  routes.implement(endpoints.playMission, async ({ params, body: { name, ...options }, actor }) =>
    play.play(params.server_id, name, options, actor),
  );
  routes.implement(endpoints.deleteMission, async ({ params, actor }) => {
    await missions.delete(params.server_id, params.filename, actor);
    return { message: `deleted ${params.filename}` };
  });
}
