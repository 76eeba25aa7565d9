import type { Static, TObject, TSchema } from './typebox.js';
import type { Capability } from './adapter/contract.js';
import type { ErrorCode } from './errors.js';
import type { Scope } from './schemas/scopes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** Who may call: anyone, any valid token, or an admin token. */
export type Access = 'public' | 'any' | 'admin';
/** `standard`: `{success, data, error: null}`; `without-error`: `{success, data}`; `none`: the payload as it is. */
export type EnvelopeKind = 'standard' | 'without-error' | 'none';

/** One HTTP endpoint of the contract: the server implements it, OpenAPI and the SDK are derived from it. */
export interface EndpointDef {
  operationId: string;
  method: HttpMethod;
  /** Path below `/api`, OpenAPI style: `/servers/{server_id}`. */
  path: string;
  tag: string;
  summary: string;
  /** What the summary cannot say in a line, for the OpenAPI description. */
  notes?: string;
  access: Access;
  /** The API-key scope it belongs to (docs/security.md); `account` and `admin` are never a key's. */
  scope: Scope;
  /** The adapter capability the server's game type must have; otherwise 400 `NOT_SUPPORTED`. */
  capability?: Capability;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** A multipart upload: the handler reads the request itself, streaming; `body` only documents it. */
  upload?: boolean;
  /** A body may be left out entirely (e.g. stop's optional options). */
  bodyOptional?: boolean;
  /** Code for a body that fails its schema; `INVALID_CONFIG` (422) for config writes. */
  invalidBodyCode?: 'VALIDATION_ERROR' | 'INVALID_CONFIG';
  status: 200 | 201 | 202 | 204;
  /** The status of an answer that says `dry_run: true`: nothing was made (200 where `status` is 201). */
  dryRunStatus?: 200;
  /** The status of an answer that is an empty list: there was nothing to do, so no job was queued (200 where `status` is 202). */
  nothingToDoStatus?: 200;
  response?: TSchema;
  envelope?: EnvelopeKind;
  /** The media type of a success answer that is not JSON (a file download, streamed as it is). */
  responseMediaType?: 'text/plain' | 'text/html' | 'application/gzip';
  /**
   * Needs the server's processes or files: served by the node that owns the server, to which any other
   * instance forwards it (503 `NODE_UNAVAILABLE` while that node is offline).
   */
  onOwner?: true;
  /** Failures this endpoint may answer with, besides the ones every endpoint has. */
  errors?: ErrorCode[];
  /**
   * The limit a call counts against, whatever spelling of the path the router answered: `login`, per
   * client address (`GARRISON_LOGIN_RATE_LIMIT`); without it, per token (`GARRISON_RATE_LIMIT`).
   */
  rateLimit?: 'login';
}

export const defineEndpoint = <const E extends EndpointDef>(endpoint: E): E => endpoint;

type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback;

export type ParamsOf<E extends EndpointDef> = StaticOr<E['params'], Record<string, never>>;
export type QueryOf<E extends EndpointDef> = StaticOr<E['query'], Record<string, never>>;
export type BodyOf<E extends EndpointDef> = E['bodyOptional'] extends true
  ? StaticOr<E['body'], undefined> | undefined
  : StaticOr<E['body'], undefined>;
export type ResponseOf<E extends EndpointDef> = StaticOr<E['response'], void>;
