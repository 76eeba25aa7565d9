import type { Knex } from 'knex';
import type { KeyScope } from '@garrison/core';

export interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  secret_sha256: string;
  /** The secret's first characters, to tell keys apart in a list. */
  prefix: string;
  scopes: KeyScope[];
  /** Null: every server. */
  server_ids: number[] | null;
  /** Null: from any address. */
  cidrs: string[] | null;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  last_used_address: string | null;
  revoked_at: string | null;
}

/** An API key with its owner as they are now (their role decides what the key can still do). */
export type KeyWithOwner = ApiKeyRow & { username: string; role: 'admin' | 'viewer'; token_generation: number; has_2fa: boolean };

type Stored = Record<string, unknown>;
const list = (text: unknown) => (typeof text === 'string' ? JSON.parse(text) : null);

/** The stored key: its lists are JSON text. */
function toKey<T extends ApiKeyRow>(row: Stored): T {
  return {
    ...(row as unknown as T),
    scopes: JSON.parse(row.scopes as string) as KeyScope[],
    server_ids: list(row.server_ids) as number[] | null,
    cidrs: list(row.cidrs) as string[] | null,
  };
}

const stored = (row: Omit<ApiKeyRow, 'id'>): Stored => ({
  ...row,
  scopes: JSON.stringify(row.scopes),
  server_ids: row.server_ids ? JSON.stringify(row.server_ids) : null,
  cidrs: row.cidrs ? JSON.stringify(row.cidrs) : null,
});

/** The api_keys table. */
export class ApiKeyRepository {
  constructor(private readonly knex: Knex) {}

  async create(row: Omit<ApiKeyRow, 'id'>, trx?: Knex.Transaction): Promise<number> {
    const [id] = await (trx ?? this.knex)('api_keys').insert(stored(row));
    return Number(id);
  }

  /** A key that is not revoked, with its owner (none when the owner is gone). */
  async live(id: number): Promise<KeyWithOwner | undefined> {
    const row = await this.knex('api_keys')
      .join('users', 'users.id', 'api_keys.user_id')
      .select(
        'api_keys.*',
        'users.username',
        'users.role',
        'users.token_generation',
        this.knex.raw('(users.totp_secret is not null) as has_2fa'),
      )
      .where('api_keys.id', id)
      .whereNull('api_keys.revoked_at')
      .first();
    return row ? { ...toKey<KeyWithOwner>(row), has_2fa: Boolean(row.has_2fa) } : undefined;
  }

  /** Keys not revoked: one user's, or everyone's. */
  async list(userId: number | null): Promise<(ApiKeyRow & { username: string })[]> {
    const query = this.knex('api_keys')
      .join('users', 'users.id', 'api_keys.user_id')
      .select('api_keys.*', 'users.username')
      .whereNull('api_keys.revoked_at')
      .orderBy('api_keys.id');
    if (userId !== null) query.where('api_keys.user_id', userId);
    return (await query).map((row: Stored) => toKey<ApiKeyRow & { username: string }>(row));
  }

  async find(id: number): Promise<ApiKeyRow | undefined> {
    const row = await this.knex('api_keys').where({ id }).whereNull('revoked_at').first();
    return row ? toKey(row) : undefined;
  }

  async revoke(id: number, at: string, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('api_keys').where({ id }).update({ revoked_at: at });
  }

  async used(id: number, at: string, address: string): Promise<void> {
    await this.knex('api_keys')
      .where({ id })
      .update({ last_used_at: at, last_used_address: address.slice(0, 64) });
  }
}
