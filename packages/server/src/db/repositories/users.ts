import type { Knex } from 'knex';
import type { Role } from '@garrison/core';

export interface UserRow {
  id: number;
  username: string;
  password_hash: string;
  role: Role;
  created_at: string;
  last_login: string | null;
  token_generation: number;
  /** Encrypted; null while two-factor sign-in is off. */
  totp_secret: string | null;
}

const COLUMNS = ['id', 'username', 'password_hash', 'role', 'created_at', 'last_login', 'token_generation', 'totp_secret'];

/** The users table. */
export class UserRepository {
  constructor(private readonly knex: Knex) {}

  private users(on: Knex = this.knex) {
    return on('users').select(COLUMNS);
  }

  async byUsername(username: string): Promise<UserRow | undefined> {
    return (await this.users().whereRaw('lower(username) = ?', [username.toLowerCase()]).first()) as UserRow | undefined;
  }

  async byId(id: number, trx?: Knex.Transaction): Promise<UserRow | undefined> {
    return (await this.users(trx).where({ id }).first()) as UserRow | undefined;
  }

  /** The columns every authenticated request needs, without building a model. */
  async principal(
    id: number,
  ): Promise<(Pick<UserRow, 'id' | 'username' | 'role' | 'token_generation'> & { has_2fa: boolean }) | undefined> {
    const row = await this.knex('users')
      .select('id', 'username', 'role', 'token_generation', this.knex.raw('(totp_secret is not null) as has_2fa'))
      .where('id', id)
      .first();
    return row ? { ...row, has_2fa: Boolean(row.has_2fa) } : undefined;
  }

  async update(id: number, patch: Partial<Pick<UserRow, 'password_hash' | 'last_login' | 'role'>>, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('users').where({ id }).update(patch);
  }

  /** Changes a user's role and/or password and ends their tokens, in one statement. False: no such user. */
  async changeAccess(id: number, patch: Partial<Pick<UserRow, 'password_hash' | 'role'>>, trx?: Knex.Transaction): Promise<boolean> {
    return (
      (await (trx ?? this.knex)('users')
        .where('id', id)
        .update({ ...patch, token_generation: this.knex.raw('token_generation + 1') })) > 0
    );
  }

  /** Ends every token of every user (a new signing secret): the first step of a sign-in too. */
  async endAllTokens(): Promise<void> {
    await this.knex('users').update({ token_generation: this.knex.raw('token_generation + 1') });
  }

  async list(): Promise<UserRow[]> {
    return (await this.users().orderBy('id')) as UserRow[];
  }

  /** Throws the database's unique violation for a taken name (see isUniqueViolation). */
  async insert(
    user: { username: string; password_hash: string; role: Role; created_at: string },
    trx?: Knex.Transaction,
  ): Promise<UserRow> {
    const [id] = await (trx ?? this.knex)('users').insert({ ...user, last_login: null });
    return (await this.byId(id, trx))!;
  }

  async delete(id: number, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('users').where({ id }).delete()) > 0;
  }

  async count(): Promise<number> {
    const [row]: { n: number | string }[] = await this.knex('users').count({ n: '*' });
    return Number(row.n);
  }
}
