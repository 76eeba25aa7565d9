import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Middleware } from 'koa';
import { wallClock } from '../jobs/clock.js';

/** How long a closing connection keeps reading what the client still sends before it is cut. */
const LINGER_MS = 5000;
/** An unread request body up to this size is read and thrown away so the connection can stay open. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * Closes a socket the way RFC 9112 §9.6 asks when the client may still be sending: send FIN after the
 * answer, then keep reading and discarding until the client's FIN (or LINGER_MS), and only then close.
 * Closing with unread bytes makes the kernel send a reset, which can destroy the answer before the client
 * reads it.
 */
export function closeGracefully(socket: Socket, answer?: string): void {
  if (socket.destroyed) return;
  const timer = wallClock.setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => timer.cancel());
  socket.once('end', () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.resume();
  if (answer === undefined) socket.end();
  else socket.end(answer);
}

/**
 * Every connection of `server` closes gracefully: Node closes a connection after the answer that ends it
 * (`Connection: close`, a refused request) through `destroySoon`, which would reset one whose request
 * body is still arriving.
 */
export function lingerOnClose(server: Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => closeGracefully(socket);
  });
}

/**
 * A route that answers without reading the body (a 401, a 403, a body it does not need) leaves it on the
 * wire. Node reads and discards it to keep the connection; past DRAIN_LIMIT_BYTES, or with a body of
 * unknown length, the connection is closed instead, so that a client cannot make the service read
 * without end.
 */
export function boundUnreadBody(): Middleware {
  return async (ctx, next) => {
    await next();
    const req = ctx.req;
    if (req.complete || req.readableEnded) return;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (!(declared <= DRAIN_LIMIT_BYTES)) ctx.set('Connection', 'close');
  };
}
