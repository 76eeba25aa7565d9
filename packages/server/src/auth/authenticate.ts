import type { Context } from 'koa';
import { ApiError } from '@garrison/core';
import type { ReadCache } from '../db/read-cache.js';
import type { Principal } from './principal.js';
import type { TokenService } from './tokens.js';
import type { UserService } from './service.js';
import { isApiKey, type ApiKeyService } from './api-keys.js';
import type { SessionService } from './sessions.js';

export function bearerToken(ctx: Context): string | null {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

const PRINCIPAL_SOURCES = { tables: ['users', 'sessions'] } as const;

/**
 * Token → principal. The user and the token's session are read from the database, so deleting a user, an
 * admin's change of their role or password (which moves their token generation on), or the end of the
 * session, takes effect at once; a token checked before is reused, with its user, until its expiry or a write to the
 * users, which saves every request of a busy client the signature check and the read.
 */
export function makeAuthenticator(
  tokens: TokenService,
  users: UserService,
  known: ReadCache<Principal>,
  keys: ApiKeyService,
  sessions: SessionService,
) {
  /** `address`: the caller's, for a key's address ranges; null for a request a peer forwarded (it checked them). */
  return async (token: string | null, address: string | null): Promise<Principal> => {
    if (!token) throw new ApiError('UNAUTHORIZED', 'missing bearer token');
    // A key is read anew on every request: its revocation, expiry and ranges count at once.
    if (isApiKey(token)) return keys.principalOf(token, address);
    const kept = known.get(token, PRINCIPAL_SOURCES);
    if (kept) return kept;
    const claims = tokens.verify(token);
    const principal = await known.read(
      token,
      PRINCIPAL_SOURCES,
      async () => {
        const found = await users.findPrincipal(Number(claims.sub), claims.gen ?? 0);
        if (!found)
          throw new ApiError('UNAUTHORIZED', 'this sign-in has ended: the user was deleted, or an admin changed their role or password');
        if (!(await sessions.check(claims.sid, found.id, address)))
          throw new ApiError('UNAUTHORIZED', 'this session was ended: sign in again');
        return { ...found, session_id: claims.sid };
      },
      claims.exp * 1000,
    );
    return principal;
  };
}
