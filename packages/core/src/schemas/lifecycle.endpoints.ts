import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { ServerIdParams } from './common.js';
import { AuditPage, AuditQuery, StartResponse, StopRequest, StoppedResponse } from './lifecycle.js';
import { ProcessInfo } from './processes.js';

/** A server's processes: started, stopped, killed, listed; and its audit trail. */
export const lifecycleEndpoints = {
  startServer: defineEndpoint({
    operationId: 'startServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/start', tag: 'lifecycle',
    summary: 'Start the game process', access: 'admin', scope: 'servers:control', params: ServerIdParams, status: 200,
    response: StartResponse,
    errors: [
      'NOT_FOUND', 'EXE_NOT_ALLOWED', 'EXE_NOT_FOUND', 'INVALID_CONFIG', 'SERVER_ALREADY_RUNNING', 'PORT_IN_USE', 'CONFIG_WRITE_ERROR',
    ],
  }),
  stopServer: defineEndpoint({
    operationId: 'stopServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/stop', tag: 'lifecycle',
    summary: 'Stop the game: shutdown through remote admin, killed after 30 s (at once with force)', access: 'admin',
    scope: 'servers:control', params: ServerIdParams, body: StopRequest, bodyOptional: true, status: 200, response: StoppedResponse,
    errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING'],
  }),
  restartServer: defineEndpoint({
    operationId: 'restartServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/restart', tag: 'lifecycle',
    summary: 'Stop, then start', access: 'admin', scope: 'servers:control', params: ServerIdParams, status: 200, response: StartResponse,
    errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING', 'EXE_NOT_ALLOWED', 'EXE_NOT_FOUND', 'INVALID_CONFIG', 'PORT_IN_USE', 'CONFIG_WRITE_ERROR'],
  }),
  killServer: defineEndpoint({
    operationId: 'killServer', onOwner: true, method: 'POST', path: '/servers/{server_id}/kill', tag: 'lifecycle',
    summary: 'Kill the game process at once', access: 'admin', scope: 'servers:control', params: ServerIdParams, status: 200,
    response: StoppedResponse, errors: ['NOT_FOUND', 'SERVER_NOT_RUNNING'],
  }),
  listProcesses: defineEndpoint({
    operationId: 'listProcesses', method: 'GET', path: '/servers/{server_id}/processes', tag: 'lifecycle',
    summary: 'The processes of the server: the game server itself and its headless clients, with their state, CPU and memory',
    access: 'any', scope: 'servers:read', params: ServerIdParams, status: 200, response: Type.Array(ProcessInfo), errors: ['NOT_FOUND'],
  }),
  listServerEvents: defineEndpoint({
    operationId: 'listServerEvents', method: 'GET', path: '/servers/{server_id}/events', tag: 'lifecycle',
    summary: 'Audit trail: who did what to the server, and what the supervisor did by itself', access: 'any', scope: 'servers:read',
    params: ServerIdParams, query: AuditQuery, status: 200, response: AuditPage, errors: ['NOT_FOUND'],
  }),
} as const;
