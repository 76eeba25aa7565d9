import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ScheduleService } from './service.js';

export function scheduleRoutes(routes: RouteTable, schedules: ScheduleService): void {
  routes.implement(endpoints.listSchedules, async ({ params }) => schedules.list(params.server_id));
  routes.implement(endpoints.createSchedule, async ({ params, body, actor }) => schedules.create(params.server_id, body, actor));
  routes.implement(endpoints.getSchedule, async ({ params }) => schedules.get(params.server_id, params.schedule_id));
  routes.implement(endpoints.updateSchedule, async ({ params, body, actor }) =>
    schedules.update(params.server_id, params.schedule_id, body, actor),
  );
  routes.implement(endpoints.deleteSchedule, async ({ params, actor }) => {
    await schedules.delete(params.server_id, params.schedule_id, actor);
    return { message: `schedule ${params.schedule_id} deleted` };
  });
  routes.implement(endpoints.runSchedule, async ({ params, actor }) => schedules.runNow(params.server_id, params.schedule_id, actor));
  routes.implement(endpoints.listScheduleRuns, async ({ params, query }) => schedules.runs(params.server_id, params.schedule_id, query));
}
