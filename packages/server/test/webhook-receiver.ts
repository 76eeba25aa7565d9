// A webhook receiver for tests: a real HTTP server on a free port that keeps what it is sent and answers
// as the test says (a status, headers, a body, or nothing at all).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@garrison/testkit';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
  at: number;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answers the next requests in turn, then `otherwise` (200 by default). */
  answer(...answers: Answer[]): void;
  otherwise(answer: Answer): void;
  waitForCount(n: number, what?: string): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Answer[] = [];
  let fallback: Answer = { status: 200, body: 'ok' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        /* not JSON */
      }
      received.push({ path: req.url ?? '', headers: req.headers, body, json, at: Date.now() });
      const answer = queue.shift() ?? fallback;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook/secret-path`,
    port: actual,
    received,
    answer: (...answers) => void queue.push(...answers),
    otherwise: (answer) => void (fallback = answer),
    waitForCount: (n, what = `${n} requests`) => waitFor(() => received.length >= n && received, { what, timeoutMs: 30_000 }),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
