import type Router from '@koa/router';
import type { Context } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import {
  ApiError,
  type AdapterDefinition,
  type BodyOf,
  type EndpointDef,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
  type Actor,
} from '@garrison/core';
import { actorOf, type KeyGrant, type Principal } from '../auth/principal.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { successBody } from './envelope.js';
import { InputValidator } from './validation.js';
import type { ReadCache, ReadSources } from '../db/read-cache.js';
import { FORWARDED, type Forwarder } from '../cluster/forwarding.js';

interface HandlerInput<E extends EndpointDef> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  /** Null only on public endpoints. */
  principal: E['access'] extends 'public' ? Principal | null : Principal;
  /** Who acts: the caller, for the services to record. */
  actor: E['access'] extends 'public' ? Actor | null : Actor;
  ctx: Context;
}

export type Handler<E extends EndpointDef> = (input: HandlerInput<E>) => Promise<ResponseOf<E>>;

export interface RouteDependencies {
  /** Reads and checks the bearer token; throws 401. */
  authenticate(ctx: Context): Promise<Principal>;
  /** The adapter of a stored server; throws 404 for an unknown server. */
  adapterOfServer(serverId: number): Promise<AdapterDefinition>;
  adapters: AdapterRegistry;
  /** Kept answers of the routes that reuse theirs, as the bytes sent. */
  answers: ReadCache<string>;
  /** Sends what needs a server's processes or files to the node that owns the server. */
  forwarder: Forwarder;
}

export interface RouteOptions {
  /** A hot read whose answer depends only on its URL and these sources: kept and reused while they are unchanged. */
  reuse?: ReadSources;
}

const JSON_LIMIT = '1mb';

/** What a handler returns when it has set the answer itself (a stream in a format of its own). */
export const ANSWERED: unique symbol = Symbol('answered');

/** `/servers/{server_id}` → `/servers/:server_id` */
const koaPath = (path: string) => '/api' + path.replace(/\{(\w+)\}/g, ':$1');

interface Route {
  endpoint: EndpointDef;
  handler: Handler<EndpointDef>;
  options: RouteOptions;
}

/**
 * The server's implementations of the endpoints the feature modules declare (core's tables, and those of a
 * module outside core). Every route gets the same pipeline:
 * authenticate → role → key's scope → parse and validate → capability guard → handler → envelope.
 */
export class RouteTable {
  private readonly routes: Route[] = [];
  private readonly declared: ReadonlyMap<string, EndpointDef>;

  constructor(declared: readonly EndpointDef[]) {
    this.declared = new Map(declared.map((e) => [e.operationId, e]));
  }

  implement<E extends EndpointDef>(endpoint: E, handler: Handler<E>, options: RouteOptions = {}): void {
    if (this.routes.some((r) => r.endpoint.operationId === endpoint.operationId)) {
      throw new Error(`endpoint ${endpoint.operationId} implemented twice`);
    }
    if (this.declared.get(endpoint.operationId) !== endpoint) {
      throw new Error(`endpoint ${endpoint.operationId} is implemented but no feature module declares it (its module's endpoints)`);
    }
    if (options.reuse && (endpoint.method !== 'GET' || endpoint.access === 'public')) {
      throw new Error(`${endpoint.operationId}: only an authenticated GET can reuse its answers`);
    }
    this.routes.push({ endpoint, handler: handler, options });
  }

  endpoints(): EndpointDef[] {
    return this.routes.map((r) => r.endpoint);
  }

  /** What a module declares and no route implements. */
  unimplemented(): string[] {
    return [...this.declared.keys()].filter((id) => !this.routes.some((r) => r.endpoint.operationId === id));
  }

  /**
   * The endpoint the router answers a request with, found as the router finds it (a trailing slash, any
   * case): what limits are keyed by, never the path as spelt. Null for no route.
   */
  endpointOf(router: Router): (ctx: Context) => EndpointDef | null {
    const byId = new Map(this.routes.map((r) => [r.endpoint.operationId, r.endpoint]));
    return (ctx) => {
      // The first route of the path and method answers: every handler ends the request.
      const layer = router.match(ctx.path, ctx.method).pathAndMethod.find((l) => l.methods.length > 0);
      return (layer?.name && byId.get(layer.name)) || null;
    };
  }

  mount(router: Router, deps: RouteDependencies): void {
    for (const { endpoint, handler, options } of this.routes) {
      const invalidCode = endpoint.invalidBodyCode ?? 'VALIDATION_ERROR';
      const params = endpoint.params && new InputValidator(endpoint.params, 'path');
      const query = endpoint.query && new InputValidator(endpoint.query, 'query');
      // An upload's handler reads the request itself, streaming; its body schema only documents it.
      const body = endpoint.body && !endpoint.upload && new InputValidator(endpoint.body, 'body', invalidCode);
      const parseJson = bodyParser({ enableTypes: ['json'], jsonLimit: JSON_LIMIT, encoding: 'utf-8' });

      router.register(
        koaPath(endpoint.path),
        [endpoint.method],
        async (ctx) => {
          const principal = endpoint.access === 'public' ? null : await deps.authenticate(ctx);
          if (endpoint.access === 'admin' && principal?.role !== 'admin') {
            throw new ApiError('FORBIDDEN', 'this action needs the admin role');
          }
          if (principal?.must_enrol && !WHILE_ENROLLING.has(endpoint.operationId)) {
            throw new ApiError(
              'FORBIDDEN',
              'two-factor sign-in is required for admins: enrol first (POST /auth/2fa/setup, then /auth/2fa/enable)',
            );
          }
          if (principal?.key) checkKey(principal.key, endpoint, ctx.params);
          if (endpoint.onOwner) {
            const serverId = Number(ctx.params.server_id);
            const owner = Number.isSafeInteger(serverId) && serverId > 0 ? await deps.forwarder.ownerOf(serverId, ctx) : null;
            if (owner) return deps.forwarder.relay(ctx, owner);
          }
          const answer = async () => {
            const input = {
              params: params ? params.parse(ctx.params) : {},
              query: query ? query.parse({ ...ctx.query }) : {},
              body: body ? body.parse(await readJson(ctx, parseJson, invalidCode, endpoint.bodyOptional)) : undefined,
              principal,
              actor: principal && actorOf(principal),
              ctx,
            };
            if (endpoint.capability) {
              const serverId = (input.params as { server_id?: number }).server_id;
              if (serverId === undefined) throw new Error(`${endpoint.operationId} needs a server_id to check its capability`);
              deps.adapters.require(await deps.adapterOfServer(serverId), endpoint.capability);
            }
            return handler(input as HandlerInput<EndpointDef>);
          };
          // A key limited to servers gets answers of its own (the list holds its servers only).
          if (options.reuse && !principal?.key?.server_ids) {
            // Keyed on the URL as sent: only a URL that was valid once has an answer kept.
            const bytes =
              deps.answers.get(ctx.url, options.reuse) ??
              (await deps.answers.read(ctx.url, options.reuse, async () => JSON.stringify(successBody(await answer(), endpoint.envelope))));
            ctx.status = endpoint.status;
            ctx.type = 'json';
            ctx.body = bytes;
            return;
          }
          const data = await answer();
          if (data === FORWARDED || data === ANSWERED) return;
          ctx.status =
            endpoint.dryRunStatus && (data as { dry_run?: unknown } | null)?.dry_run === true
              ? endpoint.dryRunStatus
              : endpoint.nothingToDoStatus && Array.isArray(data) && data.length === 0
                ? endpoint.nothingToDoStatus
                : endpoint.status;
          if (endpoint.status !== 204) ctx.body = successBody(data, endpoint.envelope);
        },
        { name: endpoint.operationId },
      );
    }
  }
}

/** What a user who must enrol in two-factor sign-in may still do: enrol, and look after their sign-in. */
const WHILE_ENROLLING: ReadonlySet<string> = new Set([
  'me',
  'logout',
  'changePassword',
  'getTwoFactor',
  'setupTwoFactor',
  'enableTwoFactor',
  'listSessions',
  'endSession',
  'endAllSessions',
]);

/**
 * What an API key may not do: an endpoint outside its scopes (403, naming the scope), a server outside
 * its servers (404: the server is not told to exist), making servers when it is limited to some.
 */
function checkKey(key: KeyGrant, endpoint: EndpointDef, params: Record<string, string>): void {
  const { scope } = endpoint;
  if (scope === 'account' || scope === 'admin')
    throw new ApiError('FORBIDDEN', `API keys cannot do this (scope ${scope}): sign in as the user`);
  if (!key.scopes.includes(scope)) throw new ApiError('FORBIDDEN', `this API key lacks the scope ${scope}`);
  if (!key.server_ids) return;
  if (params.server_id !== undefined && !key.server_ids.includes(Number(params.server_id)))
    throw new ApiError('NOT_FOUND', `no server ${params.server_id}`);
  if (endpoint.operationId === 'createServer') throw new ApiError('FORBIDDEN', 'a key limited to some servers cannot make servers');
}

async function readJson(
  ctx: Context,
  parse: ReturnType<typeof bodyParser>,
  code: 'VALIDATION_ERROR' | 'INVALID_CONFIG',
  optional = false,
): Promise<unknown> {
  if (!ctx.request.length && !ctx.get('transfer-encoding')) return optional ? {} : undefined;
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError(code, 'request body must be JSON (Content-Type: application/json)');
  }
  try {
    await parse(ctx, async () => {});
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 413) throw new ApiError(code, `request body exceeds ${JSON_LIMIT}`, { status: 413 });
    throw new ApiError(code, `malformed JSON body: ${(err as Error).message}`);
  }
  return ctx.request.body;
}
