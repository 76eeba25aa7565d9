import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, type Role, type User } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Models } from '../db/models/index.js';
import type { UserModel } from '../db/models/UserModel.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Settings } from '../settings.js';
import { DUMMY_HASH_PROMISE, generatePassword, hashPassword, verifyPassword } from './passwords.js';
import type { Principal } from './principal.js';
import { forgetInitialPassword, initialPasswordOwner, initialPasswordPath, keepInitialPassword } from './first-admin.js';

const now = () => new Date().toISOString();

function toUser(row: UserModel): User {
  return { id: row.id, username: row.username, role: row.role, created_at: row.created_at, last_login: row.last_login };
}

@injectable()
export class UserService {
  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  private byUsername(username: string) {
    return this.models.User.query().whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  }

  /** Runs on every authenticated request: the three columns it needs, without building a model. */
  async findPrincipal(id: number): Promise<Principal | undefined> {
    const row = await this.models.User.knex()('users').select('id', 'username', 'role').where('id', id).first();
    return row && { id: row.id, username: row.username, role: row.role };
  }

  /** The user for these credentials, or 401; both failures take the same time. */
  async authenticate(username: string, password: string): Promise<Principal> {
    const row = await this.byUsername(username);
    const ok = await verifyPassword(password, row?.password_hash ?? (await DUMMY_HASH_PROMISE));
    if (!row || !ok) throw new ApiError('UNAUTHORIZED', 'invalid username or password');
    await this.models.User.query().findById(row.id).patch({ last_login: now() });
    return { id: row.id, username: row.username, role: row.role };
  }

  async changePassword(id: number, current: string, next: string): Promise<void> {
    const row = await this.models.User.query().findById(id);
    if (!row || !(await verifyPassword(current, row.password_hash))) {
      throw new ApiError('UNAUTHORIZED', 'the current password is wrong');
    }
    await this.setPassword(row.username, next);
  }

  /** Replaces a user's password without the current one (`garrison admin reset-password`); 404 for no such user. */
  async setPassword(username: string, password: string): Promise<User> {
    const row = await this.byUsername(username);
    if (!row) throw new ApiError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
    await this.models.User.query().findById(row.id).patch({ password_hash: await hashPassword(password) });
    await forgetInitialPassword(this.settings.dataDir, row.username);
    return toUser(row);
  }

  async list(): Promise<User[]> {
    return (await this.models.User.query().orderBy('id')).map(toUser);
  }

  async create(username: string, password: string, role: Role = 'viewer'): Promise<User> {
    const password_hash = await hashPassword(password);
    try {
      const row = await this.models.User.query().insertAndFetch({ username, password_hash, role, created_at: now(), last_login: null });
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
    const deleted = await this.models.User.query().deleteById(id);
    if (!deleted) throw new ApiError('NOT_FOUND', `no user ${id}`);
  }

  /**
   * On an empty users table, creates the first admin. A generated password is kept in the data dir
   * (0600) until changed, and returned for the caller to show once the service listens; it is never
   * stored in clear anywhere else.
   */
  async ensureFirstAdmin(): Promise<{ username: string; generatedPassword: string | null; passwordFile: string | null }> {
    const { adminUsername: username, adminPassword, dataDir } = this.settings;
    const existing = async () => {
      if (adminPassword) this.logger.warn('GARRISON_ADMIN_PASSWORD is set but ignored: users exist already (to set a password, use garrison admin reset-password)');
      const owner = await initialPasswordOwner(dataDir);
      return { username: owner ?? username, generatedPassword: null, passwordFile: owner ? initialPasswordPath(dataDir) : null };
    };
    if ((await this.models.User.query().resultSize()) > 0) return existing();
    const password = adminPassword ?? generatePassword();
    try {
      await this.create(username, password, 'admin');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') return existing(); // another instance made it first
      throw err;
    }
    this.logger.info({ username }, 'created the first admin user');
    if (adminPassword) return { username, generatedPassword: null, passwordFile: null };
    return { username, generatedPassword: password, passwordFile: await keepInitialPassword(dataDir, username, password) };
  }
}
