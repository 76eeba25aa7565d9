import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';

/** The trailers that follow a forwarded request's streamed body: its SHA-256 and that digest signed with the hop's nonce. */
export const SIGNED_BODY_HEADERS = { digest: 'x-garrison-body-sha256', signature: 'x-garrison-body-signature' } as const;

type Check = (digest: string, trailers: NodeJS.Dict<string>) => Error | null;

interface Watch {
  hash: Hash;
  /** Set once the whole body has arrived. */
  digest: string | null;
  check: Check | null;
}

const watched = new WeakMap<IncomingMessage, Watch>();

/**
 * Hashes the body of every request that says a peer forwarded it, as its bytes arrive. It is installed
 * before any handler, on the server's `request` event, so that no byte passes unhashed: a small body has
 * often been read with the head. The check (set by `bodyDigest` once the head's signature holds) runs
 * when the body's end arrives, before the end is passed on: a body that is not the one signed makes the
 * request fail there, so a handler never sees it complete (an upload is not kept, JSON is not applied).
 * Nothing is held beyond the hash: an upload streams through as before.
 */
export function watchForwardedBodies(http: Server, forwardedHeaders: readonly string[]): void {
  http.prependListener('request', (req: IncomingMessage) => {
    if (!forwardedHeaders.some((name) => req.headers[name] !== undefined)) return;
    const watch: Watch = { hash: createHash('sha256'), digest: null, check: null };
    watched.set(req, watch);
    const push = req.push.bind(req);
    req.push = (chunk: unknown, encoding?: BufferEncoding) => {
      if (chunk !== null) {
        watch.hash.update(chunk as Buffer);
        return push(chunk, encoding);
      }
      watch.digest = watch.hash.digest('base64url');
      const refusal = watch.check?.(watch.digest, req.trailers);
      if (refusal) {
        req.destroy(refusal);
        return false;
      }
      return push(null);
    };
  });
}

/**
 * Has `check` judge the request's body by its digest (and its trailers): at once when it has all
 * arrived (a refusal is thrown), else when it does (a refusal cuts the request off).
 */
export function bodyDigest(req: IncomingMessage, check: Check): void {
  const watch = watched.get(req);
  if (!watch) throw new Error('a forwarded request reached a server that does not hash forwarded bodies');
  if (watch.digest === null) {
    watch.check = check;
    return;
  }
  const refusal = check(watch.digest, req.trailers);
  if (refusal) throw refusal;
}
