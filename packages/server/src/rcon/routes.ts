import { ApiError, endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AuditService } from '../audit/service.js';
import type { RemoteAdminService } from './service.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { ServerService } from '../servers/service.js';

export function rconRoutes(routes: RouteTable, remoteAdmin: RemoteAdminService, audit: AuditService, servers: ServerService, adapters: AdapterRegistry): void {
  routes.implement(endpoints.rconSay, async ({ params, body, principal }) => {
    const say = adapters.get((await servers.row(params.server_id)).game_type).capabilities.remote_admin?.sayCommand;
    if (!say) throw new ApiError('NOT_SUPPORTED', 'this game type has no command to message every player');
    await remoteAdmin.command(params.server_id, say(body.message));
    void audit.record(params.server_id, 'command', principal.username, { command: 'say' });
    return { message: 'sent' };
  });
  routes.implement(endpoints.rconCommand, async ({ params, body, principal }) => {
    const response = await remoteAdmin.command(params.server_id, body.command);
    // The command word only: the rest may be a message or a password.
    void audit.record(params.server_id, 'command', principal.username, { command: body.command.split(/\s/)[0] });
    return { response };
  });
}
