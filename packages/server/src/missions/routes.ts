import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from '../audit/service.js';
import type { MissionService } from './service.js';

export function missionRoutes(routes: RouteTable, missions: MissionService, audit: AuditService): void {
  routes.implement(endpoints.listMissions, async ({ params }) => missions.list(params.server_id));
  for (const endpoint of [endpoints.uploadMission, endpoints.uploadMissionAlias]) {
    routes.implement(endpoint, async ({ params, ctx, principal }) => {
      const uploaded = await missions.upload(params.server_id, ctx.req);
      void audit.record(params.server_id, 'mission_uploaded', principal.username, { filename: uploaded.filename, file_size: uploaded.file_size });
      return uploaded;
    });
  }
  routes.implement(endpoints.getRotation, async ({ params }) => missions.rotation(params.server_id));
  routes.implement(endpoints.setRotation, async ({ params, body, principal }) => {
    const rotation = await missions.setRotation(params.server_id, body.missions, body.config_version);
    void audit.record(params.server_id, 'config_changed', principal.username, { rotation: rotation.missions.length, config_version: rotation.config_version });
    return rotation;
  });
  routes.implement(endpoints.deleteMission, async ({ params, principal }) => {
    await missions.delete(params.server_id, params.filename);
    void audit.record(params.server_id, 'mission_deleted', principal.username, { filename: params.filename });
    return { message: `deleted ${params.filename}` };
  });
}
