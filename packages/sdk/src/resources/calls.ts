import type { BodyOf, Endpoints, QueryOf } from '@garrison/core';
import type { CallFn, CallResult, GarrisonClient } from '../client.js';

/** What a resource's calls go through: the client's typed `call`, and `read` for a streamed answer. */
export interface Caller {
  call: CallFn;
  read: GarrisonClient['read'];
}

export type Body<K extends keyof Endpoints> = NonNullable<BodyOf<Endpoints[K]>>;
export type Query<K extends keyof Endpoints> = Partial<QueryOf<Endpoints[K]>>;
export type Result<K extends keyof Endpoints> = Promise<CallResult<Endpoints[K]>>;

/** The path parameters of a call about one server, whose id the resources take positionally. */
export const server = (server_id: number) => ({ server_id });
