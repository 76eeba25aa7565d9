import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { UserService } from './service.js';
import type { ApiKeyService } from './api-keys.js';
import type { SessionService } from './sessions.js';
import type { TwoFactorService } from './two-factor.js';

export function authRoutes(
  routes: RouteTable,
  users: UserService,
  keys: ApiKeyService,
  sessions: SessionService,
  twoFactor: TwoFactorService,
): void {
  routes.implement(endpoints.loginTwoFactor, async ({ body, ctx }) =>
    users.loginSecondStep(body.mfa_token, body.code, { address: ctx.ip, userAgent: ctx.get('user-agent') || null }),
  );
  routes.implement(endpoints.getTwoFactor, async ({ principal }) => twoFactor.status(principal.id));
  routes.implement(endpoints.setupTwoFactor, async ({ principal }) => twoFactor.setup(principal.id));
  routes.implement(endpoints.enableTwoFactor, async ({ principal, body }) => twoFactor.enable(principal.id, body.code));
  routes.implement(endpoints.disableTwoFactor, async ({ principal, body }) => {
    await users.disableTwoFactor(principal.id, body.password, body.code);
    return { message: 'two-factor sign-in is off' };
  });
  routes.implement(endpoints.listSessions, async ({ principal }) => sessions.list(principal));
  routes.implement(endpoints.endSession, async ({ principal, params }) => sessions.end(principal, params.session_id));
  routes.implement(endpoints.endAllSessions, async ({ principal, actor }) => sessions.endAll(principal.id, null, actor));
  routes.implement(endpoints.listApiKeys, async ({ principal, query }) => keys.list(principal, query.all ?? false));
  routes.implement(endpoints.createApiKey, async ({ principal, body }) => keys.create(principal, body));
  routes.implement(endpoints.revokeApiKey, async ({ principal, params }) => keys.revoke(principal, params.key_id));
  routes.implement(endpoints.login, async ({ body, ctx }) =>
    users.login(body.username, body.password, { address: ctx.ip, userAgent: ctx.get('user-agent') || null }),
  );
  routes.implement(endpoints.logout, async () => ({ message: 'logged out; discard the token on the client' }));
  routes.implement(endpoints.me, async ({ principal }) => ({ id: principal.id, username: principal.username, role: principal.role }));
  routes.implement(endpoints.changePassword, async ({ principal, body }) => {
    await users.changePassword(principal.id, body.current_password, body.new_password, principal.session_id ?? null);
    return { message: 'password changed' };
  });
  routes.implement(endpoints.listUsers, async () => users.list());
  routes.implement(endpoints.createUser, async ({ body, actor }) => {
    const { id, username, role, created_at } = await users.create(body.username, body.password, body.role ?? 'viewer', actor);
    return { id, username, role, created_at };
  });
  routes.implement(endpoints.updateUser, async ({ params, body, principal }) => users.changeAccess(params.user_id, body, principal));
  routes.implement(endpoints.deleteUser, async ({ params, principal }) => users.delete(params.user_id, principal));
}
