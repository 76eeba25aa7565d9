import type { Knex } from 'knex';
import type { Role } from '@garrison/core';
import { UserModel } from '../models/UserModel.js';

export type UserRow = Pick<UserModel, 'id' | 'username' | 'password_hash' | 'role' | 'created_at' | 'last_login' | 'token_generation' | 'totp_secret'>;

/** The users table. */
export class UserRepository {
  private readonly User: typeof UserModel;

  constructor(private readonly knex: Knex) {
    this.User = UserModel.bindKnex(knex);
  }

  async byUsername(username: string): Promise<UserRow | undefined> {
    return this.User.query().whereRaw('lower(username) = ?', [username.toLowerCase()]).first();
  }

  async byId(id: number): Promise<UserRow | undefined> {
    return this.User.query().findById(id);
  }

  /** The columns every authenticated request needs, without building a model. */
  async principal(id: number): Promise<(Pick<UserRow, 'id' | 'username' | 'role' | 'token_generation'> & { has_2fa: number | boolean }) | undefined> {
    return this.knex('users').select('id', 'username', 'role', 'token_generation', this.knex.raw('(totp_secret is not null) as has_2fa')).where('id', id).first();
  }

  async update(id: number, patch: Partial<Pick<UserRow, 'password_hash' | 'last_login' | 'role'>>, trx?: Knex.Transaction): Promise<void> {
    await this.User.query(trx).findById(id).patch(patch);
  }

  /** Changes a user's role and/or password and ends their tokens, in one statement. False: no such user. */
  async changeAccess(id: number, patch: Partial<Pick<UserRow, 'password_hash' | 'role'>>, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('users').where('id', id).update({ ...patch, token_generation: this.knex.raw('token_generation + 1') })) > 0;
  }

  /** Ends every token of every user (a new signing secret): the first step of a sign-in too. */
  async endAllTokens(): Promise<void> {
    await this.knex('users').update({ token_generation: this.knex.raw('token_generation + 1') });
  }

  async list(): Promise<UserRow[]> {
    return this.User.query().orderBy('id');
  }

  /** Throws the database's unique violation for a taken name (see isUniqueViolation). */
  async insert(user: { username: string; password_hash: string; role: Role; created_at: string }, trx?: Knex.Transaction): Promise<UserRow> {
    return this.User.query(trx).insertAndFetch({ ...user, last_login: null });
  }

  async delete(id: number, trx?: Knex.Transaction): Promise<boolean> {
    return (await this.User.query(trx).deleteById(id)) > 0;
  }

  async count(): Promise<number> {
    return this.User.query().resultSize();
  }
}
