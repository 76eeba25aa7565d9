import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { UserService } from './service.js';
import type { ApiKeyService } from './api-keys.js';

export function authRoutes(routes: RouteTable, users: UserService, keys: ApiKeyService): void {
  routes.implement(endpoints.listApiKeys, async ({ principal, query }) => keys.list(principal, query.all ?? false));
  routes.implement(endpoints.createApiKey, async ({ principal, body }) => keys.create(principal, body));
  routes.implement(endpoints.revokeApiKey, async ({ principal, params }) => keys.revoke(principal, params.key_id));
  routes.implement(endpoints.login, async ({ body }) => users.login(body.username, body.password));
  routes.implement(endpoints.logout, async () => ({ message: 'logged out; discard the token on the client' }));
  routes.implement(endpoints.me, async ({ principal }) => principal);
  routes.implement(endpoints.changePassword, async ({ principal, body }) => {
    await users.changePassword(principal.id, body.current_password, body.new_password);
    return { message: 'password changed' };
  });
  routes.implement(endpoints.listUsers, async () => users.list());
  routes.implement(endpoints.createUser, async ({ body }) => {
    const { id, username, role, created_at } = await users.create(body.username, body.password, body.role);
    return { id, username, role, created_at };
  });
  routes.implement(endpoints.updateUser, async ({ params, body, principal }) => users.changeAccess(params.user_id, body, principal));
  routes.implement(endpoints.deleteUser, async ({ params, principal }) => users.delete(params.user_id, principal));
}
