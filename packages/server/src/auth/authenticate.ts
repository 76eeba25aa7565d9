import type { Context } from 'koa';
import { ApiError } from '@garrison/core';
import type { Principal } from './principal.js';
import type { TokenService } from './tokens.js';
import type { UserService } from './service.js';

export function bearerToken(ctx: Context): string | null {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** Token → principal. The user is read from the database each time, so deleting a user revokes their tokens at once. */
export function makeAuthenticator(tokens: TokenService, users: UserService) {
  return async (token: string | null): Promise<Principal> => {
    if (!token) throw new ApiError('UNAUTHORIZED', 'missing bearer token');
    const claims = tokens.verify(token);
    const principal = await users.findPrincipal(Number(claims.sub));
    if (!principal) throw new ApiError('UNAUTHORIZED', 'the user of this token no longer exists');
    return principal;
  };
}
