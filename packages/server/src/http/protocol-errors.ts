import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '@garrison/core';
import { failureBody } from './envelope.js';
import { closeGracefully } from './lingering-close.js';

/** Parser errors of Node's HTTP layer and what the client is told; anything else is a 400. */
const PARSER_FAILURES: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'the request headers are larger than 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request did not arrive in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'the request headers did not arrive in time'],
  HPE_INVALID_METHOD: [400, 'unknown HTTP method (methods are case-sensitive)'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'Content-Length together with Transfer-Encoding'],
  HPE_INVALID_CONTENT_LENGTH: [400, 'malformed Content-Length'],
  HPE_INVALID_HEADER_TOKEN: [400, 'a header holds a character that is not allowed'],
  HPE_INVALID_URL: [400, 'the request target holds a character that is not allowed'],
};

/** A whole HTTP answer in the failure envelope, for a socket that Koa never sees; the connection closes after it. */
export function rawAnswer(status: number, message: string, code = 'VALIDATION_ERROR'): string {
  const body = JSON.stringify(failureBody(code, message));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Requests that Node's HTTP parser refuses never reach Koa: they get the failure envelope here, with the
 * status that fits, and the connection is closed (what follows on it cannot be trusted). So does an
 * `Expect` other than `100-continue` (417).
 */
export function answerProtocolErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] = PARSER_FAILURES[err.code ?? ''] ?? [400, 'malformed HTTP request'];
    logger.info({ code: err.code, status }, 'malformed request refused');
    closeGracefully(socket, rawAnswer(status, `${message} (${err.code ?? 'parse error'})`));
  });

  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify(
      failureBody('VALIDATION_ERROR', `cannot meet the expectation ${JSON.stringify(req.headers.expect)}; only 100-continue is supported`),
    );
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  });
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2); its absence is refused in the envelope. */
export function requireHost(): Middleware {
  return async (ctx, next) => {
    if (ctx.req.httpVersionMajor === 1 && ctx.req.httpVersionMinor >= 1 && !ctx.req.headers.host) {
      ctx.set('Connection', 'close');
      throw new ApiError('VALIDATION_ERROR', 'HTTP/1.1 requests need a Host header');
    }
    await next();
  };
}
