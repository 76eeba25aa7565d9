import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';
import { inject, injectable } from 'tsyringe';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Settings } from '../settings.js';
import type { Repositories } from '../db/repositories/index.js';
import { NodeService, type Owner } from '../nodes/service.js';
import { isCluster } from './mode.js';
import { DatabaseTime } from './database-time.js';
import type { Clock } from '../jobs/clock.js';

/** What a handler returns when the answer was relayed from the owner as it came. */
export const FORWARDED: unique symbol = Symbol('forwarded');

const NODE_HEADER = 'x-garrison-node';
const TIME_HEADER = 'x-garrison-time';
const SIGNATURE_HEADER = 'x-garrison-signature';
/** A forwarded request older than this (or this far ahead) is refused: a copy replayed later is useless. */
const SIGNATURE_TOLERANCE_MS = 5 * 60_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** Hop-by-hop headers (RFC 9110 7.6.1) and our own: never passed on. */
const NOT_PASSED = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', NODE_HEADER, TIME_HEADER, SIGNATURE_HEADER]);

/**
 * Requests that need a server's processes or files go to the node that owns it. The caller's own token
 * goes along (the JWT secret is the cluster's), so the owner checks the caller, their role and whether
 * they still exist itself, and records them in the audit trail; the cluster secret signs the hop (method,
 * URL, the forwarding node, the time and a digest of the token), which tells the owner the request came
 * from a peer: it is not counted against the rate limit a second time, and never forwarded again.
 */
@injectable()
export class Forwarder {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });
  private readonly tlsAgent = new TlsAgent({ keepAlive: true, maxSockets: 64 });

  constructor(
    @inject(TOKENS.Settings) private readonly settings: Settings,
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
      throw new ApiError('NODE_UNAVAILABLE', `${what} belongs to node ${owner.nodeId}, not to ${this.nodeId} where node ${String(ctx.state.forwardedBy)} sent it; try again`);
    }
    if (!owner.online || !owner.url) throw new ApiError('NODE_UNAVAILABLE', `${what} runs on node ${owner.nodeId}, which is offline; its game keeps running and it answers again when the node is back`);
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
    headers['x-forwarded-for'] = ctx.ip;
    Object.assign(headers, this.sign(ctx.method, ctx.originalUrl, ctx.get('authorization')));
    const started = this.clock.now();
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = target.protocol === 'https:' ? tlsRequest : request;
      // The socket's time-out bounds the connection only: once connected, a start may wait minutes for the game.
      const upstream = send(target, { method: ctx.method, headers, agent: target.protocol === 'https:' ? this.tlsAgent : this.agent, timeout: CONNECT_TIMEOUT_MS }, resolve);
      const unreachable = (err: Error) =>
        reject(new ApiError('NODE_UNAVAILABLE', `node ${owner.nodeId} could not be reached (${err.message}); its servers answer again when it is back`, { cause: err }));
      upstream.on('error', unreachable);
      upstream.on('timeout', () => upstream.destroy(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)));
      upstream.on('socket', (socket) => (socket.connecting ? socket.once('connect', () => upstream.setTimeout(0)) : upstream.setTimeout(0)));
      ctx.req.on('aborted', () => upstream.destroy());
      if (body) upstream.end(body);
      else if (ctx.req.readableEnded) upstream.end();
      else ctx.req.pipe(upstream);
    });
    this.logger.debug({ node: owner.nodeId, method: ctx.method, path: ctx.path, status: answer.statusCode, ms: this.clock.now() - started }, 'forwarded to the owner');
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

  private sign(method: string, url: string, authorization: string): Record<string, string> {
    const time = String(this.databaseTime.now());
    return { [NODE_HEADER]: this.nodeId, [TIME_HEADER]: time, [SIGNATURE_HEADER]: this.signature(method, url, this.nodeId, time, authorization) };
  }

  private signature(method: string, url: string, node: string, time: string, authorization: string): string {
    const token = createHash('sha256').update(authorization).digest('base64url');
    return createHmac('sha256', this.settings.clusterSecret ?? '').update([method, url, node, time, token].join('\n')).digest('base64url');
  }

  /**
   * The peer that forwarded this request, or null for a client's own. A request that says it was
   * forwarded and is not signed right is refused (401), never served as a client's.
   */
  forwardedBy(ctx: Context): string | null {
    const node = ctx.get(NODE_HEADER);
    if (!node && !ctx.get(SIGNATURE_HEADER)) return null;
    if (!isCluster(this.settings)) throw new ApiError('UNAUTHORIZED', 'a forwarded request reached an instance that is not part of a cluster');
    const time = ctx.get(TIME_HEADER);
    const expected = Buffer.from(this.signature(ctx.method, ctx.originalUrl, node, time, ctx.get('authorization')));
    const given = Buffer.from(ctx.get(SIGNATURE_HEADER));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      this.logger.warn({ node, path: ctx.path }, 'refused a forwarded request with a wrong signature (is GARRISON_CLUSTER_SECRET the same on every instance?)');
      throw new ApiError('UNAUTHORIZED', 'the forwarded request is not signed with this cluster\'s secret');
    }
    // By the database's clock as each host reckons it: the hosts' own clocks may differ by any amount.
    const age = this.databaseTime.now() - Number(time);
    if (!(Math.abs(age) <= SIGNATURE_TOLERANCE_MS)) {
      this.logger.warn({ node, age_ms: age }, 'refused a forwarded request stamped more than 5 minutes from the database\'s time (a copy replayed later?)');
      throw new ApiError('UNAUTHORIZED', 'the forwarded request is too old');
    }
    return node;
  }

  close(): void {
    this.agent.destroy();
    this.tlsAgent.destroy();
  }
}
