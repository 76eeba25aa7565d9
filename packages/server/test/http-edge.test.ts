import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, expectError, startHarness, type Harness } from './helpers.js';
import { rawRequest, type RawExchange } from './raw-http.js';

describe('the HTTP edge', () => {
  let h: Harness;
  let host: string;
  before(async () => {
    h = await startHarness();
    host = new URL(h.url).host;
  });
  after(() => h.close());

  describe('integers and booleans in paths and queries are spelled exactly, or refused', () => {
    it('never acts on a server the client did not name', async () => {
      const s = await createServer(h);
      for (const id of [
        `${s.id}.5`,
        `+${s.id}`,
        `${s.id}%20`,
        `%20${s.id}`,
        `${s.id}e0`,
        `0x${s.id}`,
        `${s.id}.0`,
        '-1',
        '0',
        `${s.id},2`,
      ]) {
        const error = expectError(await h.api('DELETE', `/servers/${id}`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
        assert.match(error.message, /server_id/, id);
        expectError(await h.api('GET', `/servers/${id}/config`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
      }
      assert.equal((await h.api('GET', `/servers/${s.id}`, { token: h.adminToken })).status, 200, 'still there');
    });

    it('refuses lenient query values, repeated ones and out-of-range ones', async () => {
      for (const query of ['limit=1.5', 'offset=true', 'limit=', 'limit=%2B1', 'offset=-0', 'limit=1&limit=2', 'limit=501', 'offset=-1']) {
        const error = expectError(await h.api('GET', `/servers?${query}`, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
        assert.match(error.message, /limit|offset/, query);
      }
      assert.equal((await h.api('GET', '/servers?limit=500&offset=0', { token: h.adminToken })).status, 200);
    });

    it('answers 400, never 500, for integers no database column holds', async () => {
      for (const path of [
        '/servers?offset=9223372036854775808',
        '/servers?offset=2147483648',
        '/servers/99999999999999999999',
        '/servers/2147483648',
        '/auth/users/9223372036854775807',
      ]) {
        expectError(await h.api(path.startsWith('/auth') ? 'DELETE' : 'GET', path, { token: h.adminToken }), 400, 'VALIDATION_ERROR');
      }
      expectError(await h.api('GET', '/servers/2147483647', { token: h.adminToken }), 404, 'NOT_FOUND');
    });
  });

  describe('requests that the HTTP parser refuses get the envelope, and the connection closes', () => {
    const refused = (exchange: RawExchange, status: number) => {
      assert.equal(exchange.status, status, exchange.text);
      assert.match(exchange.headers['content-type'] ?? '', /^application\/json/, exchange.text);
      assert.equal(exchange.headers.connection, 'close');
      const body = JSON.parse(exchange.body);
      assert.equal(body.success, false);
      assert.equal(body.data, null);
      assert.equal(typeof body.error.code, 'string');
      assert.equal(typeof body.error.message, 'string');
    };
    const cases: [string, () => string, number][] = [
      ['a lower-case method', () => `get /api/system/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
      ['an unknown method', () => `FETCH /api/system/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
      ['a missing Host', () => `GET /api/system/health HTTP/1.1\r\n\r\n`, 400],
      [
        'Transfer-Encoding with Content-Length',
        () => `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
        400,
      ],
      ['a malformed Content-Length', () => `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 12abc\r\n\r\n`, 400],
      ['a NUL byte in a header', () => `GET /api/system/health HTTP/1.1\r\nHost: ${host}\r\nX-Note: a\0b\r\n\r\n`, 400],
      ['raw non-ASCII bytes in the path', () => `GET /api/sys\xe9tem/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400],
      ['headers over 16 KB', () => `GET /api/system/health HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431],
      [
        'an Expect other than 100-continue',
        () =>
          `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nExpect: 200-ok\r\nContent-Type: application/json\r\n` +
          `Content-Length: 2\r\n\r\n{}`,
        417,
      ],
    ];
    for (const [name, request, status] of cases) {
      it(`${name}: ${status}`, async () => refused(await rawRequest(h.url, Buffer.from(request(), 'latin1')), status));
    }

    it('still serves a well-formed request on a fresh connection afterwards', async () => {
      const ok = await rawRequest(h.url, `GET /api/system/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(ok.body), { status: 'ok' });
    });
  });

  describe('an answer given before the body is read reaches the client', () => {
    const head = (method: string, path: string, token: string, length: number, connection: string) =>
      `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${length}\r\nConnection: ${connection}\r\n\r\n`;

    for (const [what, method, path, role, status] of [
      ["a viewer's PUT refused with 403", 'PUT', '/api/servers/1', 'viewer', 403],
      ['a body on GET /auth/me', 'GET', '/api/auth/me', 'admin', 200],
    ] as const) {
      it(`${what}, on a closing connection: no reset while the client sends the rest`, async () => {
        const size = 3 * 1024 * 1024;
        const token = role === 'admin' ? h.adminToken : h.viewerToken;
        const exchange = await rawRequest(
          h.url,
          Buffer.concat([Buffer.from(head(method, path, token, size, 'close')), Buffer.alloc(64 * 1024, 0x20)]),
          {
            // The answer came first: the client sends the rest of its body, then closes its side.
            then: async (write) => {
              for (let sent = 64 * 1024; sent < size; sent += 256 * 1024)
                await write(Buffer.alloc(Math.min(256 * 1024, size - sent), 0x20));
            },
          },
        );
        assert.equal(exchange.status, status, exchange.text.slice(0, 300));
        assert.equal(exchange.error, null, 'the connection ended cleanly, not with a reset');
      });
    }

    it('closes, rather than reads, a connection whose unread body is larger than it will drain', async () => {
      const exchange = await rawRequest(
        h.url,
        Buffer.concat([Buffer.from(head('PUT', '/api/servers/1', h.viewerToken, 1024 ** 3, 'keep-alive')), Buffer.alloc(64 * 1024, 0x20)]),
      );
      assert.equal(exchange.status, 403);
      assert.equal(exchange.headers.connection, 'close');
      assert.equal(exchange.error, null, 'closed with a FIN, not a reset');
    });

    it('keeps a connection alive whose small unread body it drained', async () => {
      const body = Buffer.alloc(200 * 1024, 0x20);
      const first = head('PUT', '/api/servers/1', h.viewerToken, body.length, 'keep-alive');
      const second = `GET /api/system/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
      const exchange = await rawRequest(h.url, Buffer.concat([Buffer.from(first), body, Buffer.from(second)]));
      assert.match(exchange.text, /^HTTP\/1\.1 403 [\s\S]*HTTP\/1\.1 200 OK/);
      assert.equal(exchange.error, null);
    });
  });

  it(
    'keeps idle connections longer than clients and proxies do (Keep-Alive: timeout=65), so it never closes one a request is on ' +
      'its way on',
    async () => {
      const exchange = await rawRequest(h.url, `GET /api/system/health HTTP/1.1\r\nHost: ${host}\r\n\r\n`, { endAfterMs: 500 });
      assert.equal(exchange.status, 200);
      assert.equal(exchange.headers['keep-alive'], 'timeout=65');
    },
  );
});
