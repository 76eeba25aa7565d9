import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkDestination, WebhookAddressError } from './address.js';
import { expectOnly } from '@garrison/core';

/** The most of an answer read: a receiver can make nothing grow here. */
const READ_LIMIT = 64 * 1024;
const SNIPPET = 500;

export interface SendResult {
  /** The receiver's status; null when there was no answer (refused address, network, time-out). */
  status: number | null;
  snippet: string | null;
  error: string | null;
  durationMs: number;
  /** When the receiver asked to wait (Retry-After, or Discord's `retry_after`), in milliseconds. */
  retryAfterMs: number | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  now: () => number;
}

/**
 * POSTs a JSON body: the destination checked first (public addresses only) and connected to as checked,
 * no redirect followed (a 3xx is an answer like any other), the whole exchange cut off after
 * `timeoutMs`, at most 64 KiB of the answer read.
 */
export async function postJson(url: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  let destination;
  try {
    destination = await checkDestination(target, options.allowPrivate);
  } catch (err) {
    if (err instanceof WebhookAddressError)
      return { status: null, snippet: null, error: err.message, durationMs: elapsed(), retryAfterMs: null };
    throw err;
  }
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [destination]);
    else callback(null, destination.address, destination.family);
  };
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    // The whole exchange, the answer's reading included, is cut off by the signal.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const req = request(target, {
      method: 'POST',
      lookup: pinned,
      signal,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'Garrison-Webhooks/1',
        ...headers,
      },
    });
    req.on('error', (err) =>
      finish({
        status: null,
        snippet: null,
        error: signal.aborted
          ? `no answer within ${options.timeoutMs} ms`
          : `${(err as NodeJS.ErrnoException).code ?? 'error'}: ${err.message}`.slice(0, 500),
        retryAfterMs: null,
      }),
    );
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        finish({
          status: res.statusCode ?? null,
          snippet: text.slice(0, SNIPPET) || null,
          error: null,
          retryAfterMs: retryAfter(res, text, options.now()),
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= READ_LIMIT) return;
        chunks.push(chunk.subarray(0, READ_LIMIT - size));
        size += chunk.length;
        if (size >= READ_LIMIT) {
          done();
          res.destroy();
        }
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(body);
  });
}

/** How long the receiver asked to be left alone: `Retry-After` (seconds or a date), else Discord's JSON `retry_after` (seconds). */
function retryAfter(res: IncomingMessage, text: string, now: number): number | null {
  const header = res.headers['retry-after'];
  if (header) {
    if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.ceil(Number(header) * 1000);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  if (res.statusCode === 429) {
    try {
      const seconds = (JSON.parse(text) as { retry_after?: unknown }).retry_after;
      if (typeof seconds === 'number' && seconds >= 0) return Math.ceil(seconds * 1000);
    } catch (err) {
      expectOnly(err, SyntaxError); // not JSON: no hint
    }
  }
  return null;
}
