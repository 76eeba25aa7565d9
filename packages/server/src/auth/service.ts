import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, SYSTEM_ACTOR, userActor, type Actor, type Role, type User } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, UserRow } from '../db/repositories/index.js';
import { isUniqueViolation } from '../db/errors.js';
import type { AuthSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { DUMMY_HASH_PROMISE, generatePassword, hashPassword, verifyPassword } from './passwords.js';
import { actorOf, type Principal } from './principal.js';
import { AuditService } from '../audit/service.js';
import { TokenService } from './tokens.js';
import { SecondStepGuard } from './second-steps.js';
import { SessionService, type SignInClient } from './sessions.js';
import { TwoFactorService } from './two-factor.js';
import { forgetInitialPassword, holdsInitialPassword, initialPasswordPath, keepInitialPassword } from './first-admin.js';

/** A user as the audit trail names them. */
const targetOf = (row: Pick<UserRow, 'id' | 'username'>) => ({ kind: 'user' as const, id: row.id, name: row.username });

function toUser(row: UserRow): User {
  return { id: row.id, username: row.username, role: row.role, created_at: row.created_at, last_login: row.last_login };
}

@injectable()
export class UserService {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: AuthSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TokenService) private readonly tokens: TokenService,
    @inject(SessionService) private readonly sessions: SessionService,
    @inject(TwoFactorService) private readonly twoFactor: TwoFactorService,
    @inject(SecondStepGuard) private readonly secondSteps: SecondStepGuard,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /**
   * Runs on every authenticated request: the caller of a token issued in `generation`, or undefined
   * when the user is gone or an admin has since changed their role or password.
   */
  async findPrincipal(id: number, generation: number): Promise<Principal | undefined> {
    const row = await this.repos.users.principal(id);
    if (!row || row.token_generation !== generation) return undefined;
    return this.twoFactor.withEnrolment({ id: row.id, username: row.username, role: row.role }, row.has_2fa);
  }

  /** A token for these credentials, or, for a user with two-factor sign-in, the challenge of the second step; 401 otherwise. */
  async login(username: string, password: string, client: SignInClient = { address: null, userAgent: null }) {
    const row = await this.authenticate(username, password);
    if (row.totp_secret) return { mfa_required: true as const, mfa_token: this.tokens.issueMfa(row) };
    return this.signedIn(row, client);
  }

  /**
   * The second step: the first step's token and a code (the app's, not used before, or a recovery code).
   * The token signs in once; the account's wrong codes in a row pause its second steps (SecondStepGuard).
   */
  async loginSecondStep(mfaToken: string, code: string, client: SignInClient) {
    const claims = this.tokens.verifyMfa(mfaToken);
    const row = await this.repos.users.byId(Number(claims.sub));
    if (!row || row.token_generation !== (claims.gen ?? 0)) throw new ApiError('UNAUTHORIZED', 'this sign-in has ended: sign in again');
    await this.secondSteps.admit(row.id, mfaToken);
    if (!(await this.twoFactor.verify(row, code))) {
      await this.secondSteps.failed(row);
      throw new ApiError('UNAUTHORIZED', 'the code is wrong, or was used already');
    }
    if (!(await this.secondSteps.succeeded(row.id, mfaToken, claims.exp)))
      throw new ApiError('UNAUTHORIZED', 'this sign-in was completed already: sign in again');
    return this.signedIn(row, client);
  }

  /** Turning two-factor sign-in off needs the password as well as a code. */
  async disableTwoFactor(id: number, password: string, code: string): Promise<void> {
    const row = await this.repos.users.byId(id);
    if (!row || !(await verifyPassword(password, row.password_hash))) throw new ApiError('UNAUTHORIZED', 'the password is wrong');
    await this.twoFactor.disable(row, code, userActor(row));
  }

  private async signedIn(row: UserRow, client: SignInClient) {
    const user = { id: row.id, username: row.username, role: row.role };
    const session = await this.sessions.begin(row.id, client, this.tokens.ttlSeconds);
    return { access_token: this.tokens.issue(row, session), token_type: 'bearer' as const, expires_in: this.tokens.ttlSeconds, user };
  }

  /** The user for these credentials, or 401; both failures take the same time. */
  async authenticate(username: string, password: string): Promise<UserRow> {
    const row = await this.repos.users.byUsername(username);
    const ok = await verifyPassword(password, row?.password_hash ?? (await DUMMY_HASH_PROMISE));
    if (!row || !ok) throw new ApiError('UNAUTHORIZED', 'invalid username or password');
    await this.repos.users.update(row.id, { last_login: isoNow(this.clock) });
    return row;
  }

  /**
   * An admin changes another user's role or sets their password; that user's tokens end at once (they
   * sign in again with what they now are). An admin cannot take their own admin role away: someone
   * must keep it.
   */
  async changeAccess(id: number, change: { role?: Role; password?: string }, caller: Principal): Promise<User> {
    if (change.role === undefined && change.password === undefined) throw new ApiError('VALIDATION_ERROR', 'give role, password, or both');
    // One's own role stays (someone must keep it), and one's own password is changed with the current
    // one (PUT /auth/password): a token alone must not do it, nor end its own sign-in.
    if (id === caller.id)
      throw new ApiError('VALIDATION_ERROR', 'you cannot change your own role; change your own password with PUT /auth/password');
    const current = await this.repos.users.byId(id);
    if (!current) throw new ApiError('NOT_FOUND', `no user ${id}`);
    // Setting the role a user has already changes nothing, and ends nothing.
    if (change.password === undefined && change.role === current.role) return toUser(current);
    const patch = {
      ...(change.role ? { role: change.role } : {}),
      ...(change.password ? { password_hash: await hashPassword(change.password) } : {}),
    };
    const actor = actorOf(caller);
    const target = targetOf(current);
    await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.users.changeAccess(id, patch, trx))) throw new ApiError('NOT_FOUND', `no user ${id}`);
      if (change.role !== undefined && change.role !== current.role) {
        await this.audit.record(trx, {
          serverId: null,
          type: 'user_role_changed',
          actor,
          target,
          detail: { from: current.role, to: change.role },
        });
      }
      if (change.password !== undefined) await this.audit.record(trx, { serverId: null, type: 'password_reset', actor, target });
    });
    const row = (await this.repos.users.byId(id))!;
    if (change.password) await forgetInitialPassword(this.settings.dataDir, current.password_hash);
    this.logger.info(
      { user: row.username, by: caller.username, role: change.role, password: change.password ? 'set' : undefined },
      'user access changed; their tokens end',
    );
    return toUser(row);
  }

  /** One's own password: the other sessions end (the one it was changed in goes on). */
  async changePassword(id: number, current: string, next: string, keepSession: string | null = null): Promise<void> {
    const row = await this.repos.users.byId(id);
    if (!row || !(await verifyPassword(current, row.password_hash))) {
      throw new ApiError('UNAUTHORIZED', 'the current password is wrong');
    }
    await this.writePassword(row, next, 'password_changed', userActor(row));
    await this.sessions.endAll(id, keepSession, userActor(row));
  }

  /** Replaces a user's password without the current one (`garrison admin reset-password`, `actor`); 404 for no such user. */
  async setPassword(username: string, password: string, actor: Actor = SYSTEM_ACTOR): Promise<User> {
    const row = await this.repos.users.byUsername(username);
    if (!row) throw new ApiError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
    await this.writePassword(row, password, 'password_reset', actor);
    return toUser(row);
  }

  private async writePassword(row: UserRow, password: string, type: 'password_changed' | 'password_reset', actor: Actor): Promise<void> {
    const password_hash = await hashPassword(password);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.users.update(row.id, { password_hash }, trx);
      await this.audit.record(trx, { serverId: null, type, actor, target: targetOf(row) });
    });
    await forgetInitialPassword(this.settings.dataDir, row.password_hash);
  }

  async list(): Promise<User[]> {
    return (await this.repos.users.list()).map(toUser);
  }

  /** `actor`: an admin (the API), the CLI, or the service making its first admin. */
  async create(username: string, password: string, role: Role, actor: Actor): Promise<User> {
    const password_hash = await hashPassword(password);
    try {
      const row = await this.audit.inTransaction(async (trx) => {
        const made = await this.repos.users.insert({ username, password_hash, role, created_at: isoNow(this.clock) }, trx);
        await this.audit.record(trx, { serverId: null, type: 'user_created', actor, target: targetOf(made), detail: { role } });
        return made;
      });
      return toUser(row);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ApiError('CONFLICT', `username ${JSON.stringify(username)} is taken`);
      }
      throw err;
    }
  }

  async delete(id: number, caller: Principal): Promise<void> {
    if (id === caller.id) throw new ApiError('VALIDATION_ERROR', 'you cannot delete your own account');
    const row = await this.repos.users.byId(id);
    if (!row) throw new ApiError('NOT_FOUND', `no user ${id}`);
    await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.users.delete(id, trx))) throw new ApiError('NOT_FOUND', `no user ${id}`);
      await this.audit.record(trx, {
        serverId: null,
        type: 'user_deleted',
        actor: actorOf(caller),
        target: targetOf(row),
        detail: { role: row.role },
      });
    });
  }

  /**
   * On an empty users table, creates the first admin. A generated password is kept in the data dir
   * (0600) until changed, and returned for the caller to show once the service listens; it is never
   * stored in clear anywhere else.
   */
  async ensureFirstAdmin(): Promise<{ username: string; generatedPassword: string | null; passwordFile: string | null }> {
    const { adminUsername: username, adminPassword, dataDir } = this.settings;
    const existing = async () => {
      if (adminPassword)
        this.logger.warn(
          'GARRISON_ADMIN_PASSWORD is set but ignored: users exist already (to set a password, use garrison admin reset-password)',
        );
      // The file names no user: it is the first admin's (the setting's name) while it still signs them in.
      const admin = await this.repos.users.byUsername(username);
      const kept = admin !== undefined && (await holdsInitialPassword(dataDir, admin.password_hash));
      return { username, generatedPassword: null, passwordFile: kept ? initialPasswordPath(dataDir) : null };
    };
    if ((await this.repos.users.count()) > 0) return existing();
    const password = adminPassword ?? generatePassword();
    try {
      await this.create(username, password, 'admin', SYSTEM_ACTOR);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') return existing(); // another instance made it first
      throw err;
    }
    this.logger.info({ username }, 'created the first admin user');
    if (adminPassword) return { username, generatedPassword: null, passwordFile: null };
    return { username, generatedPassword: password, passwordFile: await keepInitialPassword(dataDir, password) };
  }
}
