import { defineEndpoint } from '../endpoint.js';
import { ServerIdParams } from './common.js';
import { RconCommandRequest, RconCommandResponse } from './rcon.js';

/** Remote admin: a command line to the running game. */
export const rconEndpoints = {
  rconCommand: defineEndpoint({
    operationId: 'rconCommand',
    onOwner: true,
    method: 'POST',
    path: '/servers/{server_id}/rcon/command',
    tag: 'rcon',
    summary: 'Run a remote-admin command on a running server',
    access: 'admin',
    scope: 'rcon',
    capability: 'remote_admin',
    params: ServerIdParams,
    body: RconCommandRequest,
    status: 200,
    response: RconCommandResponse,
    errors: ['NOT_FOUND', 'NOT_SUPPORTED', 'NO_RCON_PASSWORD', 'SERVER_NOT_RUNNING', 'RCON_ERROR'],
  }),
} as const;
