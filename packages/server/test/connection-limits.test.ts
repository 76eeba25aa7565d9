import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import pino from 'pino';
import WebSocket from 'ws';
import { waitFor, withDeadline } from '@garrison/testkit';
import { startHarness, type Harness } from './helpers.js';
import { wsClient } from './games.js';

/** A plain TCP connection to the service: what it was sent, and whether the service has closed it. */
async function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await withDeadline(new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject)), 10_000, 'a connection');
  let text = '';
  let closed = false;
  socket.setEncoding('latin1').on('data', (d: string) => (text += d));
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  return {
    socket,
    get text() {
      return text;
    },
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
    /** The service's answer and its close, within `ms`. */
    closedWithin: (ms: number, what: string) => waitFor(() => closed, { timeoutMs: ms, what }),
    /** One request on it, answered (the connection kept open): the service has counted the connection. */
    async get(path: string) {
      const before = text.length;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
      await waitFor(() => /\r\n\r\n/.test(text.slice(before)) && /Content-Length: (\d+)/i.test(text.slice(before)), {
        timeoutMs: 10_000,
        what: `the answer to GET ${path}`,
      });
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(text.slice(before))?.[1]);
    },
    end: () => socket.destroy(),
  };
}

/** A logger whose JSON lines the test reads. */
function capturedLogger() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('connections are bounded: slow clients, one address, one user', () => {
  const harnesses: Harness[] = [];
  const sockets: { end(): void }[] = [];
  after(async () => {
    for (const s of sockets) s.end();
    for (const h of harnesses) await h.close().catch(() => {});
  });
  const harness = async (options: Record<string, unknown>) => {
    const h = await startHarness(options);
    harnesses.push(h);
    return h;
  };
  const open = async (url: string) => {
    const c = await rawConnection(url);
    sockets.push(c);
    return c;
  };

  it('cuts off a request body that stops arriving (408), and not one that keeps arriving slowly', async () => {
    const h = await harness({ bodyIdleTimeoutS: 1 });
    const { host } = new URL(h.url);
    const stalled = await open(h.url);
    stalled.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"username"`,
    );
    await stalled.closedWithin(15_000, 'the stalled body to be cut off');
    assert.equal(stalled.status(), 408, stalled.text);
    assert.match(stalled.text, /the request body stopped arriving/);

    // Two and a half idle time-outs in all, each byte well within one.
    const body = JSON.stringify({ username: 'nobody', password: 'wrong-password' });
    const steady = await open(h.url);
    steady.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const pieces = body.match(/.{1,8}/g)!;
    for (const piece of pieces) {
      steady.socket.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 2500 / pieces.length));
    }
    await waitFor(() => steady.status() || null, { timeoutMs: 10_000, what: 'the answer to the slow body' });
    assert.equal(steady.status(), 401, steady.text);
  });

  it('answers 408 to headers that do not arrive in time', async () => {
    const h = await harness({ headersTimeoutS: 1, requestTimeoutS: 1 });
    const slow = await open(h.url);
    slow.socket.write('GET /api/system/health HTTP/1.1\r\nHo');
    await slow.closedWithin(15_000, 'the slow headers to be cut off');
    assert.equal(slow.status(), 408, slow.text);

    // A kept-alive connection idle between requests is the keep-alive time-out's (65 s), not the headers'.
    const kept = await open(h.url);
    assert.equal(await kept.get('/api/system/health'), 200);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(await kept.get('/api/system/health'), 200);
  });

  it(
    'answers 429 on a connection past the cap of its address, HTTP and WebSocket, ' + 'and takes one again once a connection closes',
    async () => {
      const h = await harness({ maxConnectionsPerAddress: 6 });
      // The harness's own client may keep a connection or two alive: the cap is met within six more.
      const held: Awaited<ReturnType<typeof open>>[] = [];
      for (let i = 0; i < 6; i += 1) {
        const c = await open(h.url);
        const status = await c.get('/api/system/health');
        if (status === 429) break;
        assert.equal(status, 200);
        held.push(c);
      }
      assert.ok(held.length >= 3, `only ${held.length} connections were taken before the cap`);

      const over = await open(h.url);
      assert.equal(await over.get('/api/system/health'), 429);
      assert.match(over.text, /"code":"RATE_LIMITED"/);
      assert.match(over.text, /Retry-After: 1/i);
      assert.match(over.text, /too many connections from this address: at most 6/);
      await over.closedWithin(10_000, 'the connection past the cap to close');

      const ws = new WebSocket(`${h.url.replace(/^http/, 'ws')}/ws?token=${h.adminToken}`);
      const refused = await withDeadline(
        new Promise<number>((resolve) => {
          ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.once('open', () => resolve(101));
          ws.once('error', () => resolve(-1));
        }),
        10_000,
        'the WebSocket past the cap',
      );
      ws.terminate();
      assert.equal(refused, 429);

      held[0].end();
      await waitFor(async () => (await (await open(h.url)).get('/api/system/health')) === 200, {
        timeoutMs: 10_000,
        what: 'a connection to be taken again',
      });
    },
  );

  it("does not count a trusted proxy's connections against one address: they are every client's", async () => {
    const h = await harness({ maxConnectionsPerAddress: 3, trustProxy: ['127.0.0.1', '::1'] });
    for (let i = 0; i < 6; i += 1)
      assert.equal(await (await open(h.url)).get('/api/system/health'), 200, `connection ${i + 1} through the proxy`);
  });

  it("closes a WebSocket past the cap of its user with 1008 and a reason; another user's are not counted", async () => {
    const h = await harness({ maxWebSocketsPerUser: 2 });
    const url = `/ws?token=${h.adminToken}`;
    const first = await wsClient(h.url, url);
    const second = await wsClient(h.url, url);
    assert.equal(first.closed, null);
    assert.equal(second.closed, null);
    const third = await wsClient(h.url, url);
    const close = await third.closing;
    assert.equal(close.code, 1008);
    assert.match(close.reason, /too many WebSockets for this user: at most 2/);

    const viewer = await wsClient(h.url, `/ws?token=${h.viewerToken}`);
    assert.equal(viewer.closed, null, 'the viewer has sockets of their own');

    first.socket.close();
    await first.closing;
    await waitFor(
      async () => {
        const again = await wsClient(h.url, url);
        if (again.closed) return false;
        again.socket.close();
        return true;
      },
      { timeoutMs: 10_000, what: 'a WebSocket to be taken again' },
    );
    for (const c of [second, viewer]) c.socket.close();
  });

  it('logs its open-file limit at start, and how many connections it takes', async () => {
    const { logger, lines } = capturedLogger();
    await harness({ logger });
    const soft = Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1]);
    const line = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('open-file limit'));
    assert.ok(line, JSON.stringify(lines.map((l) => l.msg)));
    assert.equal(line.open_files_limit, soft);
    assert.equal(line.max_connections, soft - Math.max(100, Math.floor(soft / 10)));
  });
});
