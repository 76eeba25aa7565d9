import type { Caller, Body, Result } from './calls.js';

export const users = (c: Caller) => ({
  list: (): Result<'listUsers'> => c.call('listUsers'),
  create: (body: Body<'createUser'>): Result<'createUser'> => c.call('createUser', { body }),
  update: (user_id: number, body: Body<'updateUser'>): Result<'updateUser'> => c.call('updateUser', { params: { user_id }, body }),
  delete: (user_id: number): Result<'deleteUser'> => c.call('deleteUser', { params: { user_id } }),
});
