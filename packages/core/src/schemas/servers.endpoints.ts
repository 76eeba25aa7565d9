import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import { ServerIdParams } from './common.js';
import { ImportPlan, ImportServerRequest } from './import.js';
import { CreateServerRequest, CreatedServer, ServerDetail, ServerListItem, ServerListQuery, UpdateServerRequest } from './servers.js';

/** Server records: made, adopted from an existing installation, changed, deleted. */
export const serverEndpoints = {
  listServers: defineEndpoint({
    operationId: 'listServers',
    method: 'GET',
    path: '/servers',
    tag: 'servers',
    summary: 'List servers',
    access: 'any',
    scope: 'servers:read',
    query: ServerListQuery,
    status: 200,
    response: Type.Array(ServerListItem),
  }),
  createServer: defineEndpoint({
    operationId: 'createServer',
    method: 'POST',
    path: '/servers',
    tag: 'servers',
    summary: 'Create a server',
    access: 'admin',
    scope: 'servers:write',
    body: CreateServerRequest,
    status: 201,
    response: CreatedServer,
    errors: ['GAME_TYPE_NOT_FOUND', 'EXE_NOT_ALLOWED', 'PORT_IN_USE'],
  }),
  importServer: defineEndpoint({
    operationId: 'importServer',
    method: 'POST',
    path: '/servers/import',
    tag: 'servers',
    summary: 'Adopt an existing installation: its config, ports, mods, bans and missions',
    notes:
      "Reads the files of a server that ran without Garrison (those its game's adapter reads), all inside the folder of `exe_path`, " +
      'and makes a Garrison server of them (201); with `dry_run` it answers the plan (200) and writes nothing. Ports, game roots, a ' +
      "shared installation's passwords and the errors: docs/import.md. A signed-in admin's act: no API key scope grants it.",
    // Reads files of the host that no server record names yet: a signed-in admin's act, never a key's.
    access: 'admin',
    scope: 'admin',
    body: ImportServerRequest,
    status: 201,
    dryRunStatus: 200,
    response: ImportPlan,
    errors: ['EXE_NOT_ALLOWED', 'PORT_IN_USE', 'INVALID_CONFIG', 'CONFLICT'],
  }),
  getServer: defineEndpoint({
    operationId: 'getServer',
    method: 'GET',
    path: '/servers/{server_id}',
    tag: 'servers',
    summary: 'One server',
    access: 'any',
    scope: 'servers:read',
    params: ServerIdParams,
    status: 200,
    response: ServerDetail,
    errors: ['NOT_FOUND'],
  }),
  updateServer: defineEndpoint({
    operationId: 'updateServer',
    onOwner: true,
    method: 'PUT',
    path: '/servers/{server_id}',
    tag: 'servers',
    summary: 'Change a server',
    access: 'admin',
    scope: 'servers:write',
    params: ServerIdParams,
    body: UpdateServerRequest,
    status: 200,
    response: ServerDetail,
    errors: ['NOT_FOUND', 'EXE_NOT_ALLOWED', 'PORT_IN_USE'],
  }),
  deleteServer: defineEndpoint({
    operationId: 'deleteServer',
    onOwner: true,
    method: 'DELETE',
    path: '/servers/{server_id}',
    tag: 'servers',
    summary: 'Delete a stopped server',
    access: 'admin',
    scope: 'servers:write',
    params: ServerIdParams,
    status: 204,
    errors: ['NOT_FOUND', 'SERVER_NOT_STOPPED'],
  }),
} as const;
