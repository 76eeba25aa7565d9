import { server, type Caller, type Query, type Result } from './calls.js';

export const metrics = (c: Caller) => ({
  get: (id: number, query: Query<'getMetrics'> = {}): Result<'getMetrics'> => c.call('getMetrics', { params: server(id), query }),
});
