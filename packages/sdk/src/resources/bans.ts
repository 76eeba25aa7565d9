import { server, type Caller, type Body, type Query, type Result } from './calls.js';

export const bans = (c: Caller) => ({
  list: (id: number, query: Query<'listBans'> = {}): Result<'listBans'> => c.call('listBans', { params: server(id), query }),
  create: (id: number, body: Body<'createBan'>): Result<'createBan'> => c.call('createBan', { params: server(id), body }),
  revoke: (id: number, ban_id: number): Result<'revokeBan'> => c.call('revokeBan', { params: { server_id: id, ban_id } }),
});
