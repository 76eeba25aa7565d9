import { DEFAULT_EVENT_CHANNELS, type EventChannel } from '@garrison/core';

/** What a WebSocket client asked for in its URL. */
export interface Subscription {
  /** null: every server. */
  servers: Set<number> | null;
  channels: Set<EventChannel>;
  /** `/ws/{id}` speaks the appendix's message names (`status`, `event`); `/ws` the contract's. */
  appendix: boolean;
}

/** A connection turned away, with the close code that says why. */
export class Refused extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** `server_id` (repeatable) on `/ws`, or the path's `{server_id|all}` on the appendix's form. */
export function subscriptionOf(url: URL): Subscription {
  const id = (raw: string) => {
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2_147_483_647)
      throw new Refused(4400, `server_id must be a server id, got ${JSON.stringify(raw.slice(0, 20))}`);
    return Number(raw);
  };
  if (url.pathname === '/ws') {
    const ids = url.searchParams.getAll('server_id').map(id);
    return { servers: ids.length ? new Set(ids) : null, channels: new Set<EventChannel>(DEFAULT_EVENT_CHANNELS), appendix: false };
  }
  let segment: string;
  try {
    segment = decodeURIComponent(url.pathname.slice('/ws/'.length));
  } catch (err) {
    if (!(err instanceof URIError)) throw err;
    throw new Refused(4400, 'malformed server id in the path');
  }
  return { servers: segment === 'all' ? null : new Set([id(segment)]), channels: new Set(['status']), appendix: true };
}
