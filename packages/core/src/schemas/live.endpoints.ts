import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { MessageResponse, ServerIdParams } from './common.js';
import { FileNameParams, FileText, LogFile, LogPage, LogQuery, MetricsPoint, MetricsQuery } from './live.js';

/** What a server produces as it runs: its log lines, its figures over time, the game's log files. */
export const liveEndpoints = {
  listLogs: defineEndpoint({
    operationId: 'listLogs', method: 'GET', path: '/servers/{server_id}/logs', tag: 'live',
    summary: 'Stored log lines of the game, newest first', access: 'any', scope: 'servers:read', params: ServerIdParams, query: LogQuery,
    status: 200, response: LogPage, errors: ['NOT_FOUND'],
  }),
  clearLogs: defineEndpoint({
    operationId: 'clearLogs', method: 'DELETE', path: '/servers/{server_id}/logs', tag: 'live', summary: 'Delete the stored log lines',
    access: 'admin', scope: 'servers:write', params: ServerIdParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND'],
  }),
  getMetrics: defineEndpoint({
    operationId: 'getMetrics', method: 'GET', path: '/servers/{server_id}/metrics', tag: 'live',
    summary: 'CPU, memory and players over time, averaged per `resolution` minutes', access: 'any', scope: 'servers:read',
    params: ServerIdParams, query: MetricsQuery, status: 200, response: Type.Array(MetricsPoint), errors: ['NOT_FOUND'],
  }),
  listLogFiles: defineEndpoint({
    operationId: 'listLogFiles', onOwner: true, method: 'GET', path: '/servers/{server_id}/logfiles', tag: 'live',
    summary: "The game's log files", access: 'any', scope: 'servers:read', capability: 'log_parser', params: ServerIdParams, status: 200,
    response: Type.Array(LogFile), errors: ['NOT_FOUND', 'NOT_SUPPORTED'],
  }),
  downloadLogFile: defineEndpoint({
    operationId: 'downloadLogFile', onOwner: true, method: 'GET', path: '/servers/{server_id}/logfiles/{filename}/download', tag: 'live',
    summary: 'One log file, as text', access: 'any', scope: 'files', capability: 'log_parser', params: FileNameParams, status: 200,
    response: FileText, envelope: 'none', responseMediaType: 'text/plain', errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR'],
  }),
  deleteLogFile: defineEndpoint({
    operationId: 'deleteLogFile', onOwner: true, method: 'DELETE', path: '/servers/{server_id}/logfiles/{filename}', tag: 'live',
    summary: 'Delete a log file (not the one the running game writes)', access: 'admin', scope: 'files', capability: 'log_parser',
    params: FileNameParams, status: 200, response: MessageResponse, errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'VALIDATION_ERROR', 'CONFLICT'],
  }),
} as const;
