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
      "Reads the files of a server that ran without Garrison (server.cfg, basic.cfg, the profile, BattlEye's config and bans.txt, the " +
      'start command line), all inside the folder of `exe_path`, and makes a Garrison server of them. With `dry_run` it answers the plan ' +
      '(200) and writes nothing; otherwise it makes the server (201) and answers the same report, with the server made and the ' +
      "credentials read (shown only here). A file that is not the game's syntax answers `INVALID_CONFIG` with its file, line and column " +
      '(never its text). Every key of every file read is in the plan: in a section field, as an extra line, or in `refused` with its ' +
      "reason. A mod not installed is listed and not enabled. The ports are those the installation's files name (the adapter reads " +
      'them) unless `game_port`/`rcon_port` are given; a port another server or another process of the host holds is a line of a dry ' +
      "run's `warnings` (`PORT_IN_USE: …`) and 409 `PORT_IN_USE` for the import. With `GARRISON_GAME_ROOTS` set, the executable and " +
      "every file read must be inside one of them; the service's own folders never, nor a file in the folder of another installation " +
      'Garrison runs. An installation a server of this node runs already is imported beside it (`shares_installation` in `warnings`) ' +
      "without the passwords its files hold, which may be that server's: new ones are made. A signed-in admin's act: no API key scope " +
      'grants it.',
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
