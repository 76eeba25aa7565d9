import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { inject, injectable } from 'tsyringe';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ClusterSettings } from './settings.js';
import type { Repositories } from '../db/repositories/index.js';
import { NodeService, type Owner } from '../nodes/service.js';
import { isCluster } from './mode.js';
import { DatabaseTime } from './database-time.js';
import type { Clock } from '../jobs/clock.js';
import type { Fence } from '../db/repositories/leases.js';
import { bodyDigest, SIGNED_BODY_HEADERS } from './signed-body.js';

/** What a handler returns when the answer was relayed from the owner as it came. */
export const FORWARDED: unique symbol = Symbol('forwarded');

const NODE_HEADER = 'x-garrison-node';
const TIME_HEADER = 'x-garrison-time';
const SIGNATURE_HEADER = 'x-garrison-signature';
const NONCE_HEADER = 'x-garrison-nonce';
/** The headers that say a request was forwarded: such a request's body is hashed as it arrives. */
export const FORWARDED_HEADERS = [NODE_HEADER, SIGNATURE_HEADER] as const;
/** The body's SHA-256 (base64url), or `trailer`: a streamed body's digest and its signature follow it as trailers. */
const BODY_HEADER = 'x-garrison-body';
const { digest: BODY_TRAILER, signature: BODY_SIGNATURE_TRAILER } = SIGNED_BODY_HEADERS;
const EMPTY_DIGEST = createHash('sha256').digest('base64url');
/** A forwarded request older than this (or this far ahead) is refused: a copy replayed later is useless. */
const SIGNATURE_TOLERANCE_MS = 5 * 60_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** Hop-by-hop headers (RFC 9110 7.6.1) and our own: never passed on. */
const NOT_PASSED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  NODE_HEADER,
  TIME_HEADER,
  SIGNATURE_HEADER,
  NONCE_HEADER,
  BODY_HEADER,
  BODY_TRAILER,
  BODY_SIGNATURE_TRAILER,
]);

/**
 * Requests that need a server's processes or files go to the node that owns it. The caller's own token
 * goes along (the JWT secret is the cluster's), so the owner checks the caller, their role and whether
 * they still exist itself, and records them in the audit trail; the cluster secret signs the hop (method,
 * URL, the forwarding node, the time, a nonce, a digest of the token and one of the body), which tells
 * the owner the request came from a peer: it is not counted against the rate limit a second time, and
 * never forwarded again. The owner keeps each nonce in the database while its stamp is within the
 * tolerance, so a hop sent twice is refused, across a restart too. A streamed body (a mission upload) is
 * not held anywhere to be hashed first: the forwarder hashes it as it passes and sends the digest, signed
 * with the nonce, as trailers; the owner hashes what it receives the same way and, if they differ, cuts
 * the request off before its handler sees the body's end (see signed-body.ts).
 */
@injectable()
export class Forwarder {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly tlsAgent = new TlsAgent({ keepAlive: true, maxSockets: 64 });

  constructor(
    @inject(TOKENS.Settings) private readonly settings: ClusterSettings,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(NodeService) private readonly nodes: NodeService,
    @inject(DatabaseTime) private readonly databaseTime: DatabaseTime,
  ) {}

  /** The owner to forward to, or null to serve here (a single instance, this node's server, or no such server: answered here). */
  async ownerOf(serverId: number, ctx: Context): Promise<Owner | null> {
    if (!isCluster(this.settings)) return null;
    const row = await this.repos.servers.find(serverId);
    if (!row) return null;
    return this.reachable(await this.nodes.owner(row.node_id), ctx, `server ${serverId}`);
  }

  /** The node a new server is made on (the one asked for, or as NodeService places it), when it is not this one. */
  async placeNew(asked: string | undefined, ctx: Context): Promise<Owner | null> {
    if (!isCluster(this.settings)) return null;
    const nodeId = await this.nodes.placement(asked);
    if (nodeId === this.nodeId) return null;
    return this.reachable(await this.nodes.owner(nodeId), ctx, `node ${nodeId}`);
  }

  private reachable(owner: Owner, ctx: Context, what: string): Owner | null {
    if (owner.local) return null;
    if (ctx.state.forwardedBy) {
      throw new ApiError(
        'NODE_UNAVAILABLE',
        `${what} belongs to node ${owner.nodeId}, not to ${this.nodeId} where node ${String(ctx.state.forwardedBy)} sent it; try again`,
      );
    }
    if (!owner.online || !owner.url)
      throw new ApiError(
        'NODE_UNAVAILABLE',
        `${what} runs on node ${owner.nodeId}, which is offline; its game keeps running and it answers again when the node is back`,
      );
    return owner;
  }

  /** Sends the request on to the owner and its answer back as it comes, streamed both ways. `body`: the request's body, already read. */
  async relay(ctx: Context, owner: Owner, body?: Buffer): Promise<void> {
    const target = new URL(ctx.originalUrl, owner.url);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(ctx.req.headers)) if (value !== undefined && !NOT_PASSED.has(name)) headers[name] = value;
    if (body) {
      headers['content-length'] = String(body.length);
      headers['content-type'] = 'application/json';
    }
    const streamed = !body && !ctx.req.readableEnded && hasBody(ctx.req.headers);
    if (streamed) {
      // Chunked, so that the digest can follow the body as a trailer.
      delete headers['content-length'];
      headers['transfer-encoding'] = 'chunked';
      headers['trailer'] = `${BODY_TRAILER}, ${BODY_SIGNATURE_TRAILER}`;
    }
    headers['x-forwarded-for'] = ctx.ip;
    const nonce = randomBytes(16).toString('base64url');
    const digest = streamed ? 'trailer' : body ? createHash('sha256').update(body).digest('base64url') : EMPTY_DIGEST;
    Object.assign(headers, this.sign(ctx.method, ctx.originalUrl, ctx.get('authorization'), nonce, digest));
    const started = this.clock.now();
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = target.protocol === 'https:' ? tlsRequest : request;
      // The socket's time-out bounds the connection only: once connected, a start may wait minutes for the game.
      const upstream = send(
        target,
        { method: ctx.method, headers, agent: target.protocol === 'https:' ? this.tlsAgent : this.agent, timeout: CONNECT_TIMEOUT_MS },
        resolve,
      );
      const unreachable = (err: Error) =>
        reject(
          new ApiError(
            'NODE_UNAVAILABLE',
            `node ${owner.nodeId} could not be reached (${err.message}); its servers answer again when it is back`,
            { cause: err },
          ),
        );
      upstream.on('error', unreachable);
      upstream.on('timeout', () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)));
      upstream.on('socket', (socket) =>
        socket.connecting ? socket.once('connect', () => upstream.setTimeout(0)) : upstream.setTimeout(0),
      );
      ctx.req.on('aborted', () => upstream.destroy());
      if (body) upstream.end(body);
      else if (!streamed) upstream.end();
      else {
        const hash = createHash('sha256');
        ctx.req.on('data', (chunk: Buffer) => hash.update(chunk));
        ctx.req.once('end', () => {
          const sent = hash.digest('base64url');
          upstream.addTrailers({ [BODY_TRAILER]: sent, [BODY_SIGNATURE_TRAILER]: this.bodySignature(nonce, sent) });
          upstream.end();
        });
        ctx.req.pipe(upstream, { end: false });
      }
    });
    this.logger.debug(
      { node: owner.nodeId, method: ctx.method, path: ctx.path, status: answer.statusCode, ms: this.clock.now() - started },
      'forwarded to the owner',
    );
    ctx.status = answer.statusCode ?? 502;
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !NOT_PASSED.has(name)) ctx.set(name, value);
    if (ctx.status === 204 || ctx.status === 304 || ctx.method === 'HEAD') {
      answer.resume();
      ctx.body = null;
      return;
    }
    ctx.res.on('close', () => answer.destroy());
    ctx.body = answer;
  }

  private sign(method: string, url: string, authorization: string, nonce: string, body: string): Record<string, string> {
    const time = String(this.databaseTime.now());
    return {
      [NODE_HEADER]: this.nodeId,
      [TIME_HEADER]: time,
      [NONCE_HEADER]: nonce,
      [BODY_HEADER]: body,
      [SIGNATURE_HEADER]: this.signature(method, url, this.nodeId, time, nonce, body, authorization),
    };
  }

  private signature(method: string, url: string, node: string, time: string, nonce: string, body: string, authorization: string): string {
    const token = createHash('sha256').update(authorization).digest('base64url');
    return createHmac('sha256', this.settings.clusterSecret ?? '')
      .update([method, url, node, time, nonce, body, token].join('\n'))
      .digest('base64url');
  }

  /** What a streamed body's digest is signed with: the hop's nonce ties it to that hop's signed head. */
  private bodySignature(nonce: string, digest: string): string {
    return createHmac('sha256', this.settings.clusterSecret ?? '')
      .update(['body', nonce, digest].join('\n'))
      .digest('base64url');
  }

  /**
   * The peer that forwarded this request, or null for a client's own. A request that says it was
   * forwarded and is not signed right is refused (401), never served as a client's.
   */
  async forwardedBy(ctx: Context): Promise<string | null> {
    const node = ctx.get(NODE_HEADER);
    if (!node && !ctx.get(SIGNATURE_HEADER)) return null;
    if (!isCluster(this.settings))
      throw new ApiError('UNAUTHORIZED', 'a forwarded request reached an instance that is not part of a cluster');
    const time = ctx.get(TIME_HEADER);
    const nonce = ctx.get(NONCE_HEADER);
    const body = ctx.get(BODY_HEADER);
    const expected = Buffer.from(this.signature(ctx.method, ctx.originalUrl, node, time, nonce, body, ctx.get('authorization')));
    const given = Buffer.from(ctx.get(SIGNATURE_HEADER));
    if (!/^[A-Za-z0-9_-]{22}$/.test(nonce) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      this.logger.warn(
        { node, path: ctx.path },
        'refused a forwarded request with a wrong signature (is GARRISON_CLUSTER_SECRET the same on every instance?)',
      );
      throw new ApiError('UNAUTHORIZED', "the forwarded request is not signed with this cluster's secret");
    }
    // By the database's clock as each host reckons it: the hosts' own clocks may differ by any amount.
    const age = this.databaseTime.now() - Number(time);
    if (!(Math.abs(age) <= SIGNATURE_TOLERANCE_MS)) {
      this.logger.warn(
        { node, age_ms: age },
        "refused a forwarded request stamped more than 5 minutes from the database's time (a copy replayed later?)",
      );
      throw new ApiError('UNAUTHORIZED', 'the forwarded request is too old');
    }
    if (!(await this.repos.clusterNonces.first(nonce, Number(time)))) {
      this.logger.warn({ node, path: ctx.path }, 'refused a forwarded request whose nonce was seen before (a copy sent again?)');
      throw new ApiError('UNAUTHORIZED', 'the forwarded request was received before');
    }
    // The body is checked as it arrives: a small one has arrived already and is refused here, a long one is cut off at its end.
    bodyDigest(ctx.req, (received, trailers) => {
      const claimed = body === 'trailer' ? String(trailers[BODY_TRAILER] ?? '') : body;
      const signed = body !== 'trailer' || safeEqual(String(trailers[BODY_SIGNATURE_TRAILER] ?? ''), this.bodySignature(nonce, claimed));
      if (signed && safeEqual(received, claimed)) return null;
      this.logger.warn({ node, path: ctx.path }, 'refused a forwarded request whose body is not the one signed');
      return new ApiError('UNAUTHORIZED', "the forwarded request's body is not the one its signature covers");
    });
    return node;
  }

  /** Forgets the nonces whose hops are past the tolerance (a copy of those is refused as too old). */
  pruneNonces(fence?: Fence): Promise<number> {
    return this.repos.clusterNonces.pruneBefore(this.databaseTime.now() - 2 * SIGNATURE_TOLERANCE_MS, fence);
  }

  close(): void {
    this.agent.destroy();
    this.tlsAgent.destroy();
  }
}

const hasBody = (headers: IncomingHttpHeaders) => headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

function safeEqual(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
