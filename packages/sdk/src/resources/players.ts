import { server, type Caller, type Body, type Query, type Result } from './calls.js';

export const players = (c: Caller) => ({
  list: (id: number): Result<'listPlayers'> => c.call('listPlayers', { params: server(id) }),
  history: (id: number, query: Query<'playerHistory'> = {}): Result<'playerHistory'> =>
    c.call('playerHistory', { params: server(id), query }),
  kick: (id: number, slot_id: string, reason: string): Result<'kickPlayer'> =>
    c.call('kickPlayer', { params: { server_id: id, slot_id }, body: { reason } }),
  ban: (id: number, slot_id: string, body: Body<'banPlayer'>): Result<'banPlayer'> =>
    c.call('banPlayer', { params: { server_id: id, slot_id }, body }),
});
