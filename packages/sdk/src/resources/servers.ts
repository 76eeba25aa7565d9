import { MAX_PAGE_SIZE, type Endpoints } from '@garrison/core';
import type { CallResult } from '../client.js';
import { server, type Caller, type Body, type Query, type Result } from './calls.js';

export const servers = (c: Caller) => ({
  list: (query: Query<'listServers'> = {}): Result<'listServers'> => c.call('listServers', { query }),
  /** Every server, page after page (`list` answers one page: 50 servers unless `limit` says otherwise). */
  all: async (query: Omit<Query<'listServers'>, 'limit' | 'offset'> = {}): Result<'listServers'> => {
    const every: CallResult<Endpoints['listServers']> = [];
    for (let offset = 0; ; offset += MAX_PAGE_SIZE) {
      const page = await c.call('listServers', { query: { ...query, limit: MAX_PAGE_SIZE, offset } });
      every.push(...page);
      if (page.length < MAX_PAGE_SIZE) return every;
    }
  },
  create: (body: Body<'createServer'>): Result<'createServer'> => c.call('createServer', { body }),
  /** Adopts an existing installation; with `dry_run: true`, only the plan (nothing written). */
  import: (body: Body<'importServer'>): Result<'importServer'> => c.call('importServer', { body }),
  get: (id: number): Result<'getServer'> => c.call('getServer', { params: server(id) }),
  update: (id: number, body: Body<'updateServer'>): Result<'updateServer'> => c.call('updateServer', { params: server(id), body }),
  delete: (id: number): Result<'deleteServer'> => c.call('deleteServer', { params: server(id) }),
  start: (id: number): Result<'startServer'> => c.call('startServer', { params: server(id) }),
  stop: (id: number, options?: Body<'stopServer'>): Result<'stopServer'> => c.call('stopServer', { params: server(id), body: options }),
  restart: (id: number): Result<'restartServer'> => c.call('restartServer', { params: server(id) }),
  kill: (id: number): Result<'killServer'> => c.call('killServer', { params: server(id) }),
  events: (id: number, query: Query<'listServerEvents'> = {}): Result<'listServerEvents'> =>
    c.call('listServerEvents', { params: server(id), query }),
  /** The game server's process and its headless clients'. */
  processes: (id: number): Result<'listProcesses'> => c.call('listProcesses', { params: server(id) }),
});
