import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { ApiError, EVENT_CHANNELS, EventCatalogue, expectOnly, liveMessage, type EventChannel, type GarrisonEvent } from '@garrison/core';
import type { InProcessEventBus, Interest } from '../events/bus.js';
import { settlesWithin, type Clock } from '../jobs/clock.js';
import { isSessionAdmin, type Principal } from '../auth/principal.js';
import { rawAnswer } from '../http/protocol-errors.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { HttpSettings } from '../http/settings.js';
import { isOverCap, tooManyConnections } from '../http/connection-limits.js';
import { WebSocketCap } from './cap.js';
import { Refused, subscriptionOf, type Subscription } from './subscription.js';
import { SendQueue, type QueuedClient } from './send-queue.js';

const MAX_CLIENT_MESSAGE = 16 * 1024;
const CLOSE_WAIT_MS = 2000;

type Channel = EventChannel;

interface Client extends Subscription, QueuedClient {
  /** Its credentials, checked again every RECHECK_MS: a key revoked or expired, a session ended, an owner gone → closed. */
  credentials: { token: string; address: string | null };
  /** Whose WebSockets it counts among (a user's sessions together, each API key apart), for the cap. */
  holder: string;
  /** An admin signed in with a session: sent the catalogue's `adminsOnly` events too. */
  admin: boolean;
}

const RECHECK_MS = 5_000;

export interface HubStats {
  clients: number;
  /** Messages not sent to clients that were not keeping up. */
  dropped: number;
}

/**
 * The WebSocket endpoint: `/ws?token=…&server_id=…` as the contract has it, and `/ws/{server_id|all}`
 * with channels as the appendix has it. Events come from the event bus and go only to the clients
 * subscribed to that server (or to all). A slow client never slows the others: past a send-buffer limit
 * its messages are dropped (and counted), and it is cut off if it stops reading altogether (send-queue.ts).
 */
export class WebSocketHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE });
  private readonly clients = new Set<Client>();
  private readonly cap: WebSocketCap;
  private readonly queue: SendQueue;
  /** What attach() started, undone by close(). */
  private attached: { unsubscribe: () => void; recheckJob: Job } | null = null;

  constructor(
    private readonly events: InProcessEventBus,
    private readonly authenticate: (token: string, address: string | null) => Promise<Principal>,
    private readonly logger: Logger,
    private readonly clock: Clock,
    private readonly jobs: JobRunner,
    private readonly settings: Pick<HttpSettings, 'maxWebSocketsPerUser' | 'maxConnectionsPerAddress'>,
    /** The client's address (X-Forwarded-For read only from a trusted proxy). */
    private readonly addressOf: (req: IncomingMessage) => string | null = (req) => req.socket.remoteAddress ?? null,
  ) {
    this.cap = new WebSocketCap(settings.maxWebSocketsPerUser, logger);
    this.queue = new SendQueue(clock, logger);
  }

  /** Starts serving: hears the event bus, rechecks credentials on a job, and takes the `upgrade`s of `http`. */
  attach(http: Server): void {
    if (this.attached) throw new Error('the WebSocket hub is attached already');
    const unsubscribe = this.events.subscribe((event) => this.deliver(event), null, { remote: true });
    const recheckJob = this.jobs.every({ name: 'ws.recheck', everyMs: RECHECK_MS, startNow: false, run: () => this.recheck() });
    this.attached = { unsubscribe, recheckJob };
    http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws' && !/^\/ws\/[^/]+$/.test(url.pathname)) {
      // Like every unknown route: 404 in the envelope (the path only; the query may carry a token).
      socket.end(rawAnswer(404, `no WebSocket endpoint at ${url.pathname.slice(0, 200)}: use /ws`, 'NOT_FOUND'));
      return;
    }
    if (isOverCap(socket)) {
      const { status, headers, body } = tooManyConnections(this.settings.maxConnectionsPerAddress);
      socket.end([`HTTP/1.1 ${status} Too Many Requests`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', body].join('\r\n'));
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.accept(ws, url, this.addressOf(req)));
  }

  stats(): HubStats {
    return { clients: this.clients.size, dropped: this.queue.droppedTotal };
  }

  /**
   * Closes the sockets whose credentials no longer hold: a key revoked or expired, a session ended, a user
   * deleted (here or on another instance of a cluster). Each check reads the database, unless the
   * principal of that token is still cached.
   */
  async recheck(): Promise<void> {
    for (const client of [...this.clients]) {
      // An admin made a viewer hears no more admins' events.
      await this.authenticate(client.credentials.token, client.credentials.address).then(
        (p) => void (client.admin = isSessionAdmin(p)),
        (err: unknown) => {
          // Refused (an ApiError) closes it; a database that did not answer is no refusal: asked again at the next check.
          if (err instanceof ApiError) return client.socket.close(4001, 'signed out: the session ended, or the key was revoked or expired');
          this.logger.warn({ err }, 'could not check the credentials of a WebSocket; checked again later');
        },
      );
    }
  }

  private async accept(socket: WebSocket, url: URL, address: string | null): Promise<void> {
    socket.on('error', () => socket.terminate());
    let client: Client;
    let principal: Principal;
    try {
      const token = url.searchParams.get('token');
      if (!token) throw new Refused(4001, 'missing token');
      principal = await this.authenticate(token, address).catch((err: unknown) => {
        expectOnly(err, ApiError); // a database that did not answer is an internal error, not a bad token
        throw new Refused(4001, 'invalid or expired token');
      });
      const holder = principal.key ? `key:${principal.key.id}` : `user:${principal.id}`;
      client = {
        socket,
        ...subscriptionOf(url),
        dropped: 0,
        overSince: 0,
        corked: false,
        credentials: { token, address },
        holder,
        admin: isSessionAdmin(principal),
      };
      if (principal.key) {
        if (!principal.key.scopes.includes('servers:read')) throw new Refused(4003, 'this API key lacks the scope servers:read');
        // A key limited to servers hears only theirs, whatever it asked for (the others are not told to exist).
        const allowed = principal.key.server_ids;
        if (allowed) client.servers = new Set([...(client.servers ?? allowed)].filter((id) => allowed.includes(id)));
      }
    } catch (err) {
      if (!(err instanceof Refused)) this.logger.error({ err }, 'a WebSocket connection failed');
      const refused = err instanceof Refused ? err : new Refused(1011, 'internal error');
      socket.close(refused.code, refused.message);
      return;
    }
    if (socket.readyState !== socket.OPEN) return;
    // Counted and added in one step (no await between): sockets authenticated together cannot all slip under the cap.
    const refused = this.cap.take(client.holder);
    if (refused) return socket.close(1008, refused);
    this.clients.add(client);
    this.reportLogInterest();
    socket.on('close', () => {
      this.clients.delete(client);
      this.cap.release(client.holder);
      this.reportLogInterest();
    });
    socket.on('message', (data, isBinary) => this.receive(client, isBinary ? null : String(data)));
    this.send(client, {
      type: 'connected',
      data: { user: String(principal.id), subscriptions: client.servers ? [...client.servers] : 'all' },
    });
  }

  private receive(client: Client, text: string | null): void {
    let message: { type?: unknown; channels?: unknown };
    try {
      message = text === null ? {} : (JSON.parse(text) as typeof message);
    } catch (err) {
      expectOnly(err, SyntaxError);
      return this.send(client, { type: 'error', data: { message: 'messages are JSON objects' } });
    }
    const channels = Array.isArray(message.channels)
      ? message.channels.filter((c: unknown): c is Channel => EVENT_CHANNELS.includes(c as Channel))
      : [];
    switch (message?.type) {
      case 'ping':
        return this.send(client, { type: 'pong' });
      case 'subscribe':
        for (const c of channels) client.channels.add(c);
        this.reportLogInterest();
        return this.send(client, { type: 'subscribed', data: { channels: [...client.channels] } });
      case 'unsubscribe':
        for (const c of channels) client.channels.delete(c);
        this.reportLogInterest();
        return this.send(client, { type: 'unsubscribed', data: { channels: [...client.channels] } });
      default:
        return this.send(client, { type: 'error', data: { message: 'unknown message type; use ping, subscribe or unsubscribe' } });
    }
  }

  /** The servers whose game log lines someone here follows: in a cluster, only those are carried here. */
  private reportLogInterest(): void {
    const servers = new Set<number>();
    let interest: Interest | null = null;
    for (const client of this.clients) {
      if (!client.channels.has('log')) continue;
      if (!client.servers) {
        interest = { all: true };
        break;
      }
      for (const id of client.servers) servers.add(id);
    }
    this.events.setInterest('log', interest ?? { all: false, servers });
  }

  /**
   * Each event is serialised and encoded once for all the clients of a form, whatever their number:
   * the same bytes go to every socket (ws frames a Buffer without copying it; a string it would encode
   * again for each client).
   */
  private deliver(event: GarrisonEvent): void {
    const { channel, adminsOnly }: { channel: Channel; adminsOnly?: true } = EventCatalogue[event.type];
    let contractMessage: Buffer | undefined;
    let appendixMessage: Buffer | undefined;
    for (const client of this.clients) {
      if (client.servers && !client.servers.has(event.server_id)) continue;
      if (!client.channels.has(channel)) continue;
      if (adminsOnly && (!client.admin || client.appendix)) continue;
      // The appendix names a message by its channel (`status`, `event`); the status channel's other events keep their own names.
      const bytes = client.appendix
        ? (appendixMessage ??= Buffer.from(
            JSON.stringify({ ...liveMessage(event), type: event.type === 'server_status' || channel !== 'status' ? channel : event.type }),
          ))
        : (contractMessage ??= Buffer.from(JSON.stringify(liveMessage(event))));
      this.queue.sendText(client, bytes);
    }
  }

  private send(client: Client, message: object): void {
    this.queue.sendText(client, JSON.stringify(message));
  }

  /** Closes every connection with 1001 (going away), as the service stops. */
  async close(): Promise<void> {
    this.attached?.unsubscribe();
    this.attached?.recheckJob.cancel();
    for (const client of this.clients) client.socket.close(1001, 'service shutting down');
    // Each closes with its closing handshake; one that does not answer within CLOSE_WAIT_MS is cut.
    const closed = Promise.all(
      [...this.clients].map(
        (c) => new Promise((resolve) => (c.socket.readyState === c.socket.CLOSED ? resolve(null) : c.socket.once('close', resolve))),
      ),
    );
    await settlesWithin(this.clock, closed, CLOSE_WAIT_MS);
    for (const client of this.clients) client.socket.terminate();
    this.wss.close();
  }
}
