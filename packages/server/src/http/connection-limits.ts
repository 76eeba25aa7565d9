import { readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { HttpSettings } from './settings.js';
import { failureBody } from './envelope.js';
import { isMissing } from '@garrison/core';

/**
 * Descriptors kept out of the connections' reach, whatever the limit: the database, the games' logs
 * and output files, uploads and backups being written, and /proc, which tells whether a game still runs.
 */
const RESERVE_MIN = 100;
/** Node looks for requests past their header or whole-request time this often (its default: 30 s). */
export const TIMEOUT_CHECK_MS = 1_000;

/** The soft limit on open files of this process (`ulimit -n`), or null where /proc does not tell it. */
function openFileLimit(limitsFile = '/proc/self/limits'): number | null {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null; // "unlimited" is no number, and no limit
  } catch (err) {
    if (!isMissing(err)) throw err;
    return null;
  }
}

/**
 * How many connections the service takes at once: its open-file limit less a reserve (a tenth, at least
 * RESERVE_MIN), so that a flood of connections cannot take the descriptors the rest of the service needs.
 * Past it, Node closes a new connection at once. Null: no limit known.
 */
function connectionBudget(fileLimit: number | null): { max: number; reserve: number } | null {
  if (fileLimit === null) return null;
  const reserve = Math.max(RESERVE_MIN, Math.floor(fileLimit / 10));
  return { max: Math.max(1, fileLimit - reserve), reserve };
}

/** Logs the open-file limit and what it allows, and sets the service's connection budget on `server`. */
export function applyFileLimit(
  server: Server,
  settings: Pick<HttpSettings, 'maxConnectionsPerAddress'>,
  logger: Logger,
  fileLimit = openFileLimit(),
): void {
  const budget = connectionBudget(fileLimit);
  if (!budget) {
    logger.warn('open-file limit unknown (no /proc/self/limits): connections are bounded only per address');
    return;
  }
  server.maxConnections = budget.max;
  const fields = {
    open_files_limit: fileLimit,
    max_connections: budget.max,
    reserved: budget.reserve,
    max_connections_per_address: settings.maxConnectionsPerAddress,
  };
  logger.info(
    fields,
    `open-file limit ${fileLimit}: at most ${budget.max} connections at once, ${budget.reserve} descriptors kept for the ` +
      `database, games and files`,
  );
  if (budget.max < 1000) logger.warn(fields, 'the open-file limit is low for a service: raise it (LimitNOFILE= in systemd, ulimit -n)');
  if (settings.maxConnectionsPerAddress === 0 || settings.maxConnectionsPerAddress > budget.max) {
    logger.warn(
      fields,
      'one client address may take every connection the open-file limit allows: set GARRISON_MAX_CONNECTIONS_PER_ADDRESS below it',
    );
  }
}

/** The client address a connection counts for (an IPv4 client on a dual-stack socket, as IPv4). */
const addressOf = (socket: Socket) => (socket.remoteAddress ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

const overCap = Symbol('garrison.overCap');
type CountedSocket = Socket & { [overCap]?: boolean };

/** A 429 in the failure envelope that closes its connection. */
export function tooManyConnections(cap: number): { status: 429; headers: Record<string, string | number>; body: string } {
  const body = JSON.stringify(
    failureBody('RATE_LIMITED', `too many connections from this address: at most ${cap} at once; close some and retry`),
  );
  return {
    status: 429,
    body,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Retry-After': 1,
      Connection: 'close',
    },
  };
}

/** Whether this connection is one past its address's cap: every request on it gets a 429, and it closes. */
export const isOverCap = (socket: Socket | Duplex): boolean => Boolean((socket as CountedSocket)[overCap]);

/**
 * Counts each client address's open connections (a WebSocket is one too, as it holds its HTTP
 * connection). One past `settings.maxConnectionsPerAddress` is not refused at once, which would tell
 * the client nothing: each request on it is answered 429 with `Retry-After` and the connection closed.
 * Such a connection is also bound by the headers time-out, so it cannot linger either. Returns the
 * request listener to mount (it answers those requests before the app sees them).
 */
export function capConnectionsPerAddress(
  server: Server,
  settings: Pick<HttpSettings, 'maxConnectionsPerAddress'>,
  logger: Logger,
  app: RequestListener,
  isProxy: (address: string) => boolean = () => false,
): RequestListener {
  const cap = settings.maxConnectionsPerAddress;
  const open = new Map<string, number>();
  if (cap > 0) {
    server.on('connection', (socket: CountedSocket) => {
      const address = addressOf(socket);
      // A trusted proxy's connections are every client's: counting them together would let one client
      // lock all of them out. The proxy bounds its clients (nginx's limit_conn); the time-outs, the
      // WebSocket cap per user and the open-file budget still hold here.
      if (isProxy(address)) return;
      const count = open.get(address) ?? 0;
      if (count >= cap) {
        socket[overCap] = true;
        if (count === cap)
          logger.warn({ address, cap }, 'a client address is over its connection cap: its new connections are answered 429');
        open.set(address, count + 1); // counted, so that the warning comes once per streak
        socket.once('close', () => release(address));
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => release(address));
    });
  }
  const release = (address: string) => {
    const left = (open.get(address) ?? 1) - 1;
    if (left <= 0) open.delete(address);
    else open.set(address, left);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!isOverCap(req.socket)) return app(req, res);
    const answer = tooManyConnections(cap);
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
}

/**
 * Cuts off a request body during which nothing arrives for `settings.bodyIdleTimeoutS`: a client that
 * sends headers and then a body byte by byte, or not at all, holds its connection no longer than that,
 * while a large upload on a slow link, which keeps sending, is never cut by it (only by the whole-request
 * time-out). The client gets a 408 in the envelope, and the connection closes.
 */
export function boundBodyIdleTime(server: Server, settings: Pick<HttpSettings, 'bodyIdleTimeoutS'>): void {
  const idleMs = settings.bodyIdleTimeoutS * 1000;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return;
    const socket = req.socket;
    socket.setTimeout(idleMs);
    // Node emits the socket's time-out as the unfinished request's: with a listener there, it leaves the socket to us.
    req.once('timeout', () => {
      if (req.complete) return;
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      const body = JSON.stringify(
        failureBody('VALIDATION_ERROR', `the request body stopped arriving: nothing for ${settings.bodyIdleTimeoutS} s`),
      );
      res.writeHead(408, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
        Connection: 'close',
      });
      // Closed once the answer is out (nothing arrived for long: no unread bytes to turn the close into a
      // reset): the app's reader of the body then fails, so nothing half-sent is ever acted on.
      res.end(body, () => socket.destroy());
    });
    // Done with the body: the socket's time-out is Node's again (keep-alive), unless the answer has set it already.
    req.once('end', () => {
      if (!res.writableFinished) socket.setTimeout(0);
    });
  });
}
