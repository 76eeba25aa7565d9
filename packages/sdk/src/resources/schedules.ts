import { server, type Caller, type Body, type Query, type Result } from './calls.js';

export const schedules = (c: Caller) => ({
  list: (id: number): Result<'listSchedules'> => c.call('listSchedules', { params: server(id) }),
  /** Steps at offsets from the cron time (negative: before it), or a `template` ("restart_with_warnings"); answers the next five runs. */
  create: (id: number, body: Body<'createSchedule'>): Result<'createSchedule'> => c.call('createSchedule', { params: server(id), body }),
  get: (id: number, schedule_id: number): Result<'getSchedule'> => c.call('getSchedule', { params: { server_id: id, schedule_id } }),
  update: (id: number, schedule_id: number, body: Body<'updateSchedule'>): Result<'updateSchedule'> =>
    c.call('updateSchedule', { params: { server_id: id, schedule_id }, body }),
  delete: (id: number, schedule_id: number): Result<'deleteSchedule'> =>
    c.call('deleteSchedule', { params: { server_id: id, schedule_id } }),
  /** Runs the steps now, whatever the schedule's conditions. */
  run: (id: number, schedule_id: number): Result<'runSchedule'> => c.call('runSchedule', { params: { server_id: id, schedule_id } }),
  runs: (id: number, schedule_id: number, query: Query<'listScheduleRuns'> = {}): Result<'listScheduleRuns'> =>
    c.call('listScheduleRuns', { params: { server_id: id, schedule_id }, query }),
});
