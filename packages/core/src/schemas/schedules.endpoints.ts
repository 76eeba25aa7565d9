import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { MessageResponse, ServerIdParams } from './common.js';
import {
  CreateScheduleRequest, RunStarted, Schedule, ScheduleIdParams, ScheduleRunPage, ScheduleRunQuery, UpdateScheduleRequest,
} from './schedules.js';

/** A server's schedules (steps on a cron expression) and their runs. */
export const scheduleEndpoints = {
  listSchedules: defineEndpoint({
    operationId: 'listSchedules', method: 'GET', path: '/servers/{server_id}/schedules', tag: 'schedules',
    summary: "The server's schedules, with their next runs", access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200,
    response: Type.Array(Schedule), errors: ['NOT_FOUND'],
  }),
  createSchedule: defineEndpoint({
    operationId: 'createSchedule', method: 'POST', path: '/servers/{server_id}/schedules', tag: 'schedules',
    summary: 'Schedule steps (restarts with in-game warnings, commands, waits) on a cron expression in a time zone',
    notes:
      'The cron time is when the action happens: give `steps` (offsets in seconds from that time; negative offsets run before it) or a ' +
      '`template` ("restart_with_warnings": the restart at the cron time, the warnings before it). The cron expression and the time zone ' +
      'are checked (400 naming each field that is wrong, each also in `details`); the answer holds the expanded steps and the next five ' +
      'runs.',
    access: 'admin', scope: 'servers:write', params: ServerIdParams, body: CreateScheduleRequest, status: 201, response: Schedule,
    errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  getSchedule: defineEndpoint({
    operationId: 'getSchedule', method: 'GET', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules',
    summary: 'One schedule', access: 'any', scope: 'servers:read', params: ScheduleIdParams, status: 200, response: Schedule,
    errors: ['NOT_FOUND'],
  }),
  updateSchedule: defineEndpoint({
    operationId: 'updateSchedule', method: 'PUT', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules',
    summary: 'Change a schedule; a change of its timing counts from now, and enabling it again clears why it was disabled', access: 'admin',
    scope: 'servers:write', params: ScheduleIdParams, body: UpdateScheduleRequest, status: 200, response: Schedule,
    errors: ['NOT_FOUND', 'VALIDATION_ERROR'],
  }),
  deleteSchedule: defineEndpoint({
    operationId: 'deleteSchedule', method: 'DELETE', path: '/servers/{server_id}/schedules/{schedule_id}', tag: 'schedules',
    summary: 'Delete a schedule and its history', access: 'admin', scope: 'servers:write', params: ScheduleIdParams, status: 200,
    response: MessageResponse, errors: ['NOT_FOUND'],
  }),
  runSchedule: defineEndpoint({
    operationId: 'runSchedule', onOwner: true, method: 'POST', path: '/servers/{server_id}/schedules/{schedule_id}/run', tag: 'schedules',
    summary: "Run a schedule's steps now, whatever its conditions", access: 'admin', scope: 'servers:control', params: ScheduleIdParams,
    status: 202, response: RunStarted, errors: ['NOT_FOUND'],
  }),
  listScheduleRuns: defineEndpoint({
    operationId: 'listScheduleRuns', method: 'GET', path: '/servers/{server_id}/schedules/{schedule_id}/runs', tag: 'schedules',
    summary: "A schedule's runs, newest first, with each step's outcome", access: 'any', scope: 'servers:read', params: ScheduleIdParams,
    query: ScheduleRunQuery, status: 200, response: ScheduleRunPage, errors: ['NOT_FOUND'],
  }),
} as const;
