import { DEFAULT_EVENT_CHANNELS, LiveEventData, type LiveEvent, type LiveEventType, expectOnly } from '@garrison/core';
import { GarrisonApiError } from './errors.js';

/** The least of a WebSocket that both the platform's and the `ws` package's have. */
interface Socket {
  onopen: (() => void) | null;
  onmessage: ((message: { data: unknown }) => void) | null;
  onclose: ((close: { code: number; reason: string }) => void) | null;
  onerror: (() => void) | null;
  close(code?: number): void;
  send(data: string): void;
}
type SocketFactory = (url: string) => Socket;

type DefaultChannel = (typeof DEFAULT_EVENT_CHANNELS)[number];

export interface SubscribeOptions {
  /** Only these servers' events; every server's when left out. */
  serverIds?: number[];
  /**
   * Also the audit trail's entries (`event`) as they are recorded: `/ws` sends status, log, players and
   * metrics by default, and this subscribes to the `event` channel on each (re)connection.
   */
  auditEntries?: boolean;
  /**
   * The default channels to keep (`/ws` sends status, log, players and metrics); the others are
   * unsubscribed on each (re)connection. A page that shows no game log leaves `log` out, so that no
   * instance is sent log lines for it.
   */
  channels?: DefaultChannel[];
  /** The first wait before reconnecting, doubled each time up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
}

export type EventHandlers = { [K in LiveEventType]?: (event: Extract<LiveEvent, { type: K }>) => void } & {
  /** Each (re)connection, once the service has accepted the subscription. */
  connected?: (subscriptions: number[] | 'all') => void;
  /** The subscription ended for good: the token was refused (401 UNAUTHORIZED), or `close()` was called (null). */
  closed?: (error: GarrisonApiError | null) => void;
};

export interface Subscription {
  /** Resolves at the first accepted connection; rejects when the token is refused. */
  ready: Promise<void>;
  close(): void;
}

/** The platform's WebSocket where there is one (browsers, Node 22+), else the `ws` package. */
async function socketFactory(): Promise<SocketFactory> {
  const platform = (globalThis as { WebSocket?: new (url: string) => Socket }).WebSocket;
  if (platform) return (url) => new platform(url);
  const { WebSocket } = await import('ws');
  return (url) => new WebSocket(url) as unknown as Socket;
}

/**
 * Live events over `/ws`, reconnecting with back-off after a drop (the subscription travels in the URL,
 * so each reconnection subscribes again); a refused token (close 4001) ends it with UNAUTHORIZED.
 */
export function subscribe(baseUrl: string, token: () => string | null, options: SubscribeOptions, handlers: EventHandlers): Subscription {
  let closedByUser = false;
  let socket: Socket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = options.reconnectDelayMs ?? 500;
  let settle!: { resolve: () => void; reject: (err: unknown) => void };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // A caller that never awaits it still hears of the refusal through `closed`.
  ready.catch((err: unknown) => expectOnly(err, GarrisonApiError));

  const end = (error: GarrisonApiError | null) => {
    closedByUser = true;
    clearTimeout(timer);
    if (error) settle.reject(error);
    handlers.closed?.(error);
  };

  const open = async () => {
    const url = new URL(`${baseUrl.replace(/^http/, 'ws')}/ws`);
    url.searchParams.set('token', token() ?? '');
    for (const id of options.serverIds ?? []) url.searchParams.append('server_id', String(id));
    const current = (await socketFactory())(url.toString());
    socket = current;
    let serverSubscriptions: number[] | 'all' | null = null;
    let unanswered = 0;
    current.onerror = () => {}; // a close follows, and decides
    current.onmessage = ({ data }) => {
      let message: { type?: string; data?: { subscriptions?: number[] | 'all' } };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch (err) {
        expectOnly(err, SyntaxError);
        return; // not one of the service's messages
      }
      const subscribed = (subscriptions: number[] | 'all') => {
        delay = options.reconnectDelayMs ?? 500;
        settle.resolve();
        handlers.connected?.(subscriptions);
      };
      if (message.type === 'connected') {
        const dropped = DEFAULT_EVENT_CHANNELS.filter((c) => options.channels && !options.channels.includes(c));
        const changes = [
          ...(dropped.length ? [{ type: 'unsubscribe', channels: dropped }] : []),
          ...(options.auditEntries ? [{ type: 'subscribe', channels: ['event'] }] : []),
        ];
        if (!changes.length) return subscribed(message.data?.subscriptions ?? 'all');
        // Connected only once the channels are as asked: an audit entry recorded in between would be
        // missed by a caller that reads again what it may have missed when `connected` comes.
        serverSubscriptions = message.data?.subscriptions ?? 'all';
        unanswered = changes.length;
        for (const change of changes) current.send(JSON.stringify(change));
        return;
      }
      if ((message.type === 'subscribed' || message.type === 'unsubscribed') && serverSubscriptions !== null) {
        if (--unanswered > 0) return;
        const subscriptions = serverSubscriptions;
        serverSubscriptions = null;
        return subscribed(subscriptions);
      }
      const handler = handlers[message.type as LiveEventType] as ((event: unknown) => void) | undefined;
      handler?.(message);
    };
    current.onclose = ({ code, reason }) => {
      if (closedByUser || socket !== current) return;
      if (code === 4001) return end(new GarrisonApiError(401, 'UNAUTHORIZED', reason || 'the token was refused'));
      if (code === 4400) return end(new GarrisonApiError(400, 'VALIDATION_ERROR', reason || 'the subscription was refused'));
      const reopenFailed = (err: unknown) =>
        current.onclose?.({ code: 1006, reason: `cannot reopen the WebSocket: ${(err as Error).message}` });
      timer = setTimeout(() => void open().catch(reopenFailed), delay);
      delay = Math.min(delay * 2, options.maxReconnectDelayMs ?? 30_000);
    };
  };
  void open().catch((err: unknown) => end(new GarrisonApiError(0, 'UNKNOWN', `cannot open the WebSocket: ${(err as Error).message}`)));

  return {
    ready,
    close: () => {
      if (closedByUser) return;
      end(null);
      socket?.close(1000);
    },
  };
}

const MAX_QUEUED = 10_000;

/** The same events as an async iterator, for `for await` loops; ending the loop closes the subscription. */
export async function* stream(baseUrl: string, token: () => string | null, options: SubscribeOptions = {}): AsyncGenerator<LiveEvent> {
  const queue: LiveEvent[] = [];
  let wake: (() => void) | null = null;
  // Set by the socket's callback: typed by hand, or the check below would read it as always null.
  let failure = null as GarrisonApiError | null;
  let done = false;
  const push = (event: LiveEvent) => {
    // A loop that stopped reading must not make the queue grow without end: the oldest go first.
    if (queue.length >= MAX_QUEUED) queue.shift();
    queue.push(event);
    wake?.();
  };
  // Every live event type core declares, so that a type added there reaches the loop too.
  const everyType = Object.fromEntries(Object.keys(LiveEventData).map((type) => [type, push])) as EventHandlers;
  const subscription = subscribe(baseUrl, token, options, {
    ...everyType,
    closed: (error) => {
      failure = error;
      done = true;
      wake?.();
    },
  });
  try {
    for (;;) {
      while (queue.length) yield queue.shift()!;
      if (done) {
        if (failure) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    subscription.close();
  }
}
