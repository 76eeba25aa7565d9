import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { SteamWorldState } from '../fake-steamcmd/state.js';
import { askedIds, BadRequest, collectionDetails, publishedFileDetails } from './answers.js';

export type SteamWebApiEndpoint = 'GetPublishedFileDetails' | 'GetCollectionDetails';

export interface SteamWebApiFault {
  /** Answer this status (with an HTML body, as Steam's front does) instead of the method's answer. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** For the next N calls of either method (default 1). */
  calls?: number;
}

export interface FakeSteamWebApi {
  /** The base URL, `http://127.0.0.1:<port>`: what `GARRISON_STEAM_API_URL` is set to. */
  url: string;
  /** Calls per method so far, whatever they were answered. */
  calls: Record<SteamWebApiEndpoint, number>;
  /** The ids each call asked for, in order (bad requests are not listed). */
  requests: { endpoint: SteamWebApiEndpoint; ids: string[] }[];
  /** Makes the next `calls` calls fail or wait. */
  fault(fault: SteamWebApiFault): void;
  close(): Promise<void>;
}

export interface FakeSteamWebApiOptions {
  /** The world it answers from, read anew for each call (a FakeSteamWorld). */
  world: { read(): SteamWorldState };
  /** Bodies above this are refused with 413 (default 64 KiB). */
  maxBody?: number;
}

const ENDPOINTS: Record<string, { endpoint: SteamWebApiEndpoint; count: string }> = {
  '/ISteamRemoteStorage/GetPublishedFileDetails/v1': { endpoint: 'GetPublishedFileDetails', count: 'itemcount' },
  '/ISteamRemoteStorage/GetCollectionDetails/v1': { endpoint: 'GetCollectionDetails', count: 'collectioncount' },
};

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 413: 'Payload Too Large' };

function sendHtml(res: ServerResponse, status: number, detail = ''): void {
  const title = STATUS_TEXT[status] ?? `Error ${status}`;
  res.writeHead(status, { 'content-type': 'text/html; charset=UTF-8' });
  res.end(`<html><head><title>${title}</title></head><body><h1>${title}</h1>${detail}</body></html>`);
}

/**
 * The body, at most `max` bytes; null when it is bigger. What comes beyond is read and dropped (so that the
 * client, still sending, gets the 413 rather than a reset), up to 16 times the limit; then the connection is cut.
 */
async function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max * 16) {
      req.socket.destroy();
      return null;
    }
    if (size <= max && declared <= max) chunks.push(chunk);
  }
  return size > max || declared > max ? null : Buffer.concat(chunks).toString('utf8');
}

/**
 * A fake of the keyless part of the Steam Web API that the Workshop needs: `POST
 * /ISteamRemoteStorage/GetPublishedFileDetails/v1/` and `…/GetCollectionDetails/v1/`, form-encoded, on a free
 * port of 127.0.0.1.
 */
export async function startFakeSteamWebApi(options: FakeSteamWebApiOptions): Promise<FakeSteamWebApi> {
  const maxBody = options.maxBody ?? 64 * 1024;
  const calls: Record<SteamWebApiEndpoint, number> = { GetPublishedFileDetails: 0, GetCollectionDetails: 0 };
  const requests: FakeSteamWebApi['requests'] = [];
  const faults: Required<SteamWebApiFault>[] = [];
  const closing = new AbortController();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/\/+$/, '');
    const route = Object.hasOwn(ENDPOINTS, path) ? ENDPOINTS[path] : undefined;
    if (!route) return sendHtml(res, 404);
    calls[route.endpoint] += 1;
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendHtml(res, 405, 'This method takes POST');
    }
    const body = await readBody(req, maxBody);
    if (body === null) return sendHtml(res, 413);
    const fault = faults[0];
    if (fault) {
      fault.calls -= 1;
      if (fault.calls <= 0) faults.shift();
      if (fault.delayMs > 0) await delay(fault.delayMs, undefined, { signal: closing.signal });
      if (fault.status) return sendHtml(res, fault.status, 'A fault the test set');
    }
    let ids: string[];
    try {
      ids = askedIds(new URLSearchParams(body), route.count);
    } catch (err) {
      if (err instanceof BadRequest) return sendHtml(res, 400, err.message);
      throw err;
    }
    requests.push({ endpoint: route.endpoint, ids });
    const world = options.world.read();
    const answer = route.endpoint === 'GetPublishedFileDetails' ? publishedFileDetails(world, ids) : collectionDetails(world, ids);
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(answer));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      // Closing the fake aborts a delayed answer; anything else is a fault of the fake, shown to the client.
      if (closing.signal.aborted) return res.destroy();
      if (!res.headersSent) sendHtml(res, 500, err.message);
      else res.destroy(err);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    requests,
    fault: (fault) => faults.push({ status: fault.status ?? 0, delayMs: fault.delayMs ?? 0, calls: fault.calls ?? 1 }),
    close: async () => {
      closing.abort();
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
