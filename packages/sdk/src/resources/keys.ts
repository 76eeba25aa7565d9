import type { Caller, Body, Query, Result } from './calls.js';

/** API keys for bots: `new GarrisonClient({ baseUrl, token: key })` acts with one. */
export const keys = (c: Caller) => ({
  /** One's own keys; `{ all: true }`: everyone's (admins). */
  list: (query: Query<'listApiKeys'> = {}): Result<'listApiKeys'> => c.call('listApiKeys', { query }),
  /** The answer carries the `key` this once. */
  create: (body: Body<'createApiKey'>): Result<'createApiKey'> => c.call('createApiKey', { body }),
  revoke: (key_id: number): Result<'revokeApiKey'> => c.call('revokeApiKey', { params: { key_id } }),
});
