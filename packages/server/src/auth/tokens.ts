import { createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { inject, injectable } from 'tsyringe';
import { ApiError, type Role, expectOnly } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { DataSettings } from '../db/settings.js';
import type { AuthSettings } from './settings.js';
import { keptInDataDir } from '../data-dir.js';

export interface TokenClaims {
  sub: string;
  username: string;
  role: Role;
  exp: number;
  /** The user's token generation when it was issued (absent in tokens of earlier versions: 0). */
  gen?: number;
  /** The sign-in session it belongs to: every bearer token has one (a token without is refused). */
  sid?: string;
  /** `mfa`: only the second step of a sign-in takes it; it is never a bearer token. */
  purpose?: 'mfa';
}

/** How long the first step of a two-factor sign-in stays good. */
const MFA_TOKEN_SECONDS = 300;

/** What the signing secret is read or made from. */
export type SecretSettings = Pick<AuthSettings, 'jwtSecret'> & Pick<DataSettings, 'dataDir'>;

/** The signing secret: from the environment, or generated once and kept in the data dir (mode 0600) so tokens survive restarts. */
export function loadOrCreateSecret(settings: SecretSettings): string {
  return settings.jwtSecret ?? keptInDataDir(settings.dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url'));
}

@injectable()
export class TokenService {
  /**
   * A KeyObject made once: given a string, jsonwebtoken 9 first tries to parse it as a public key on
   * every sign and verify (auth0/node-jsonwebtoken#966), which cost a fifth of a loaded service's CPU.
   */
  private readonly secret: KeyObject;

  constructor(@inject(TOKENS.Settings) private readonly settings: SecretSettings & Pick<AuthSettings, 'tokenTtlSeconds'>) {
    this.secret = createSecretKey(Buffer.from(loadOrCreateSecret(settings), 'utf8'));
  }

  get ttlSeconds(): number {
    return this.settings.tokenTtlSeconds;
  }

  issue(user: { id: number; username: string; role: Role; token_generation: number }, sessionId: string): string {
    return jwt.sign({ username: user.username, role: user.role, gen: user.token_generation, sid: sessionId }, this.secret, {
      algorithm: 'HS256',
      subject: String(user.id),
      expiresIn: this.settings.tokenTtlSeconds,
    });
  }

  /**
   * The token of a sign-in's first step (the password was right): good for one second step only. Its
   * own id makes two first steps in the same second two tokens, each used up on its own.
   */
  issueMfa(user: { id: number; token_generation: number }): string {
    return jwt.sign({ purpose: 'mfa', gen: user.token_generation }, this.secret, {
      algorithm: 'HS256',
      subject: String(user.id),
      expiresIn: MFA_TOKEN_SECONDS,
      jwtid: randomUUID(),
    });
  }

  /**
   * A bearer token's claims; a sign-in's first-step token is refused here, and so is one without a
   * session: only a session can be ended (sign out everywhere, a password change, a rotated secret), so
   * a token without one, however it was signed, would outlive all of them.
   */
  verify(token: string): TokenClaims & { sid: string } {
    const claims = this.decode(token);
    if (claims.purpose || typeof claims.sid !== 'string' || !claims.sid) throw new ApiError('UNAUTHORIZED', 'invalid or expired token');
    return claims as TokenClaims & { sid: string };
  }

  verifyMfa(token: string): TokenClaims {
    const claims = this.decode(token);
    if (claims.purpose !== 'mfa')
      throw new ApiError('UNAUTHORIZED', "not the token of a sign-in's first step, or it expired: sign in again");
    return claims;
  }

  private decode(token: string): TokenClaims {
    let claims: string | jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
    } catch (err) {
      expectOnly(err, jwt.JsonWebTokenError); // malformed, signed otherwise, expired (TokenExpiredError is one)
      throw new ApiError('UNAUTHORIZED', 'invalid or expired token');
    }
    // jsonwebtoken checks `exp` only when there is one: a token without it would never expire.
    if (typeof claims !== 'object' || typeof claims.sub !== 'string' || typeof claims.exp !== 'number')
      throw new ApiError('UNAUTHORIZED', 'invalid or expired token');
    return claims as TokenClaims;
  }
}
