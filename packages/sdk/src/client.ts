import {
  endpoints,
  type BodyOf,
  type EndpointDef,
  type EndpointId,
  type Endpoints,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '@garrison/core';
import { GarrisonApiError, errorFrom } from './errors.js';
import { resources } from './resources/index.js';
import { stream, subscribe, type EventHandlers, type SubscribeOptions, type Subscription } from './events.js';
import type { LiveEvent } from '@garrison/core';
import { browserUploads, sendForm } from './form-upload.js';
import type { UploadProgress } from './upload.js';
import { rateLimitOf, type RateLimitState } from './rate-limit.js';
import { networkError } from './network.js';

export interface GarrisonClientOptions {
  /** Where the service runs, e.g. `http://127.0.0.1:8080` (the `/api` prefix is added). */
  baseUrl: string;
  /** A bearer token; `login()` sets one. */
  token?: string | null;
  /** Another fetch (a test double, a proxy agent); the platform's by default. */
  fetch?: typeof fetch;
  /** Retries of a request answered 429, after its `Retry-After`; 0 (the default) never retries. */
  rateLimitRetries?: number;
  /** The longest `Retry-After` a retry waits for; a longer one is thrown. */
  maxRetryWaitSeconds?: number;
  /** Told the budget of requests left after every answer that reports one (see `rateLimit`). */
  onRateLimit?: (state: RateLimitState) => void;
  /**
   * The longest a request may take, its answer read (an upload's too), in milliseconds; past it the
   * request is abandoned with a `GarrisonNetworkError` (`reason: 'timeout'`). None by default.
   */
  timeoutMs?: number;
}

/** The input of a call that takes nothing (the same type as `{}`: nothing more is asked). */
type NoInput = Record<never, never>;
type Has<T, K extends string> = [T] extends [Record<string, never>] ? NoInput : [T] extends [undefined] ? NoInput : { [P in K]: T };
/**
 * A streamed multipart body (`multipartBody()`), sent without holding it whole.
 * @public
 */
export interface StreamedBody {
  stream: ReadableStream<Uint8Array>;
  contentType: string;
}
type BodyInput<E extends EndpointDef> = E['body'] extends object
  ? E['upload'] extends true
    ? { body: FormData | StreamedBody; onProgress?: (progress: UploadProgress) => void }
    : E['bodyOptional'] extends true
      ? { body?: BodyOf<E> }
      : { body: BodyOf<E> }
  : NoInput;

/** What a call of endpoint `E` takes: its path parameters, query and body, each where it has one. */
export type CallInput<E extends EndpointDef> = Has<ParamsOf<E>, 'params'> &
  (E['query'] extends object ? { query?: Partial<QueryOf<E>> } : NoInput) &
  BodyInput<E>;

/** What a call of endpoint `E` gives: the envelope's `data`, the payload of an unwrapped answer, or text. */
export type CallResult<E extends EndpointDef> = E['responseMediaType'] extends 'text/plain'
  ? string
  : E['status'] extends 204
    ? void
    : ResponseOf<E>;

/** `call`'s signature: an endpoint id, then that endpoint's input when it takes any. */
export type CallFn = <K extends EndpointId>(
  id: K,
  ...input: NoInput extends CallInput<Endpoints[K]> ? [CallInput<Endpoints[K]>?] : [CallInput<Endpoints[K]>]
) => Promise<CallResult<Endpoints[K]>>;

type Resources = ReturnType<typeof resources>;
// The resource groups (`client.servers`, `client.config`, …) are set in the constructor.
// Merged on purpose: the class's instances carry the groups.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- see above
export interface GarrisonClient extends Resources {}

/**
 * The typed client: every endpoint of core's table by its id, its input and output types derived from
 * the same schemas the server validates with (`call('startServer', { params: { server_id: 1 } })`), and
 * the same calls grouped by resource (`client.servers.start(1)`).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface above declares the groups the constructor sets
export class GarrisonClient {
  token: string | null;
  /** The budget of requests left as the service's last answer reported it; null before any such answer. */
  rateLimit: RateLimitState | null = null;
  /** Live events over the WebSocket: handlers per event type, or a `for await` loop. */
  readonly events: {
    subscribe(options: SubscribeOptions, handlers: EventHandlers): Subscription;
    stream(options?: SubscribeOptions): AsyncGenerator<LiveEvent>;
  };
  private readonly baseUrl: string;
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: GarrisonClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token ?? null;
    // Called as a method of this client, a browser's own fetch throws "Illegal invocation": it must keep its global `this`.
    this.fetcher = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    Object.assign(this, resources(this));
    const token = () => this.token;
    this.events = {
      subscribe: (options, handlers) => subscribe(this.baseUrl, token, options, handlers),
      stream: (options) => stream(this.baseUrl, token, options),
    };
  }

  /**
   * Logs in and keeps the token for the calls that follow. A user with two-factor sign-in gets
   * `{ mfa_required: true, mfa_token }` instead: then `loginSecondStep(mfa_token, code)`.
   */
  async login(username: string, password: string): Promise<CallResult<Endpoints['login']>> {
    const result = await this.call('login', { body: { username, password } });
    if ('access_token' in result) this.token = result.access_token;
    return result;
  }

  /** The second step of a two-factor sign-in: the app's code (or a recovery code); keeps the token. */
  async loginSecondStep(mfa_token: string, code: string): Promise<CallResult<Endpoints['loginTwoFactor']>> {
    const result = await this.call('loginTwoFactor', { body: { mfa_token, code } });
    this.token = result.access_token;
    return result;
  }

  call: CallFn = async (id, ...[input]) => {
    const endpoint: EndpointDef = endpoints[id];
    const given = (input ?? {}) as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      onProgress?: (progress: UploadProgress) => void;
    };
    const url = this.urlOf(endpoint, given.params, given.query);
    const headers: Record<string, string> = {};
    if (this.token && endpoint.access !== 'public') headers.authorization = `Bearer ${this.token}`;
    let body: string | FormData | ReadableStream<Uint8Array> | undefined;
    const streamed = isStreamed(given.body) ? given.body : null;
    if (streamed) {
      headers['content-type'] = streamed.contentType;
      body = streamed.stream;
    } else if (given.body instanceof FormData) body = given.body;
    else if (given.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(given.body);
    }
    // A browser's fetch reports no upload progress: its forms go through XMLHttpRequest.
    if (body instanceof FormData && browserUploads()) {
      const form = body;
      return (await this.bounded(url, async (signal) => {
        const response = this.noted(await sendForm(url, endpoint.method, headers, form, given.onProgress, signal));
        if (!response.ok) throw await errorFrom(response);
        return this.resultOf(endpoint, response);
      })) as never;
    }
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.bounded(url, async (signal) => {
        const response = this.noted(
          await this.fetcher(url, { method: endpoint.method, headers, body, signal, ...(streamed ? { duplex: 'half' } : {}) }),
        );
        // A stream can be sent once: a 429 on a streamed upload is thrown, not retried.
        if (streamed && !response.ok) throw await errorFrom(response);
        return response.ok ? { result: await this.resultOf(endpoint, response) } : { error: await errorFrom(response) };
      });
      if ('result' in outcome) return outcome.result as never;
      if (!this.shouldRetry(outcome.error, attempt)) throw outcome.error;
      await new Promise((resolve) => setTimeout(resolve, outcome.error.retryAfterSeconds! * 1000));
    }
  };

  /**
   * One request and the reading of its answer, within `timeoutMs` when one is set; a failure of the
   * network (or the time-out) becomes a `GarrisonNetworkError`.
   */
  private async bounded<T>(url: string, request: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const { timeoutMs } = this.options;
    const signal = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
    try {
      return await request(signal);
    } catch (err) {
      if (err instanceof GarrisonApiError) throw err;
      throw networkError(err, url, Boolean(signal?.aborted), timeoutMs);
    }
  }

  /**
   * A text or file endpoint's answer as a stream, read as it arrives: a large log file (or the audit trail's
   * JSON lines, `query` `{format: 'jsonl'}`) is never held whole (the reader decides how much to take, and
   * cancels the rest). Errors as `call` throws them.
   */
  async read(
    id: 'downloadLogFile' | 'downloadConfigFile' | 'listAudit',
    params: Record<string, unknown>,
    query: Record<string, unknown> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const endpoint: EndpointDef = endpoints[id];
    const headers: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {};
    const response = this.noted(await this.fetcher(this.urlOf(endpoint, params, query), { method: endpoint.method, headers }));
    if (!response.ok) throw await errorFrom(response);
    return response.body ?? new Blob([]).stream();
  }

  private noted(response: Response): Response {
    const state = rateLimitOf(response.headers);
    if (state) {
      this.rateLimit = state;
      this.options.onRateLimit?.(state);
    }
    return response;
  }

  private urlOf(endpoint: EndpointDef, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
    const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (params[name] === undefined) throw new TypeError(`${endpoint.operationId} needs the path parameter ${name}`);
      return encodeURIComponent(String(params[name]));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
    }
    const qs = search.toString();
    return `${this.baseUrl}/api${path}${qs ? `?${qs}` : ''}`;
  }

  private async resultOf(endpoint: EndpointDef, response: Response): Promise<unknown> {
    if (endpoint.status === 204 || response.status === 204) return undefined;
    if (endpoint.responseMediaType === 'application/gzip') return response.blob();
    if (endpoint.responseMediaType) return response.text();
    const json = (await response.json()) as { data?: unknown };
    return endpoint.envelope === 'none' ? json : json.data;
  }

  private shouldRetry(error: GarrisonApiError, attempt: number): boolean {
    return (
      error.status === 429 &&
      error.retryAfterSeconds !== null &&
      attempt < (this.options.rateLimitRetries ?? 0) &&
      error.retryAfterSeconds <= (this.options.maxRetryWaitSeconds ?? 60)
    );
  }
}

function isStreamed(body: unknown): body is StreamedBody {
  return typeof body === 'object' && body !== null && 'stream' in body && 'contentType' in body;
}
