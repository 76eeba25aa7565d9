import { OpenApiBuilder, type OpenAPIObject, type OperationObject, type ParameterObject, type SchemaObject } from 'openapi3-ts/oas31';
import { DetailFailure, ErrorCodes, FailureEnvelope, type EndpointDef, type ErrorCode, type TSchema } from '@garrison/core';

/** Replaces every nested schema that has an `$id` by a reference, registering it under components.schemas. */
function toSchema(schema: TSchema, components: Map<string, SchemaObject>): SchemaObject {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const { $id, ...rest } = node as Record<string, unknown>;
    const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]));
    if (typeof $id !== 'string') return converted;
    if (!components.has($id)) components.set($id, converted);
    return { $ref: `#/components/schemas/${$id}` };
  };
  // The JSON round trip drops TypeBox's symbol-keyed metadata.
  return walk(JSON.parse(JSON.stringify(schema))) as SchemaObject;
}

function envelopeFor(data: SchemaObject, kind: EndpointDef['envelope']): SchemaObject {
  if (kind === 'none') return data;
  const properties: Record<string, SchemaObject> = { success: { const: true }, data };
  if (kind !== 'without-error') properties.error = { type: 'null' };
  return { type: 'object', properties, required: Object.keys(properties) };
}

function parameters(endpoint: EndpointDef, components: Map<string, SchemaObject>): ParameterObject[] {
  const out: ParameterObject[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, prop] of Object.entries(schema.properties)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || (schema.required ?? []).includes(name),
        schema: toSchema(prop, components),
      });
    }
  }
  return out;
}

/**
 * Every error code the route can answer: those it declares, and those every route of its kind can:
 * a malformed request, a missing token or role, a server that does not exist or lacks the capability,
 * the rate limit, and an internal error.
 */
function errorCodesOf(endpoint: EndpointDef): ErrorCode[] {
  const codes = new Set<ErrorCode>(endpoint.errors ?? []);
  if (endpoint.params || endpoint.query || endpoint.body) codes.add('VALIDATION_ERROR');
  if (endpoint.access !== 'public') codes.add('UNAUTHORIZED');
  if (endpoint.access === 'admin') codes.add('FORBIDDEN');
  if (endpoint.params && 'server_id' in endpoint.params.properties) codes.add('NOT_FOUND');
  if (endpoint.capability) codes.add('NOT_SUPPORTED');
  if (endpoint.onOwner) codes.add('NODE_UNAVAILABLE');
  codes.add('RATE_LIMITED');
  codes.add('INTERNAL_ERROR');
  return [...codes].sort();
}

/**
 * Either failure form the spec allows, with `code` narrowed to those this status carries on this route;
 * one component per set of codes, shared by the routes that answer the same set.
 */
function failureFor(codes: ErrorCode[], components: Map<string, SchemaObject>): SchemaObject {
  const name = `Failure_${codes.join('_')}`;
  if (!components.has(name)) {
    const narrowed: SchemaObject = {
      allOf: [{ $ref: '#/components/schemas/ErrorBody' }, { type: 'object', properties: { code: { type: 'string', enum: codes } } }],
    };
    components.set(name, {
      description: `A failure with code ${codes.join(' or ')}, in either form the spec allows.`,
      oneOf: [
        { allOf: [{ $ref: '#/components/schemas/FailureEnvelope' }, { type: 'object', properties: { error: narrowed } }] },
        { allOf: [{ $ref: '#/components/schemas/DetailFailure' }, { type: 'object', properties: { detail: narrowed } }] },
      ],
    });
  }
  return { $ref: `#/components/schemas/${name}` };
}

/** The OpenAPI 3.1 document of the implemented endpoints: those the feature modules declare (core's tables, or a module's own). */
export function buildOpenApi(endpoints: EndpointDef[], version: string): OpenAPIObject {
  const components = new Map<string, SchemaObject>();
  const builder = OpenApiBuilder.create()
    .addTitle('Garrison')
    .addVersion(version)
    .addDescription('Management service for dedicated game servers.')
    .addServer({ url: '/api' })
    .addSecurityScheme('bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });

  for (const endpoint of endpoints) {
    const responses: OperationObject['responses'] = {};
    responses[String(endpoint.status)] =
      endpoint.status === 204 || !endpoint.response
        ? { description: 'No content' }
        : endpoint.responseMediaType
          ? { description: 'Success', content: { [endpoint.responseMediaType]: { schema: toSchema(endpoint.response, components) } } }
          : {
              description: 'Success',
              content: { 'application/json': { schema: envelopeFor(toSchema(endpoint.response, components), endpoint.envelope) } },
            };
    if (endpoint.dryRunStatus)
      responses[String(endpoint.dryRunStatus)] = {
        ...(responses[String(endpoint.status)] as object),
        description: 'Success of a dry run: nothing was made',
      };
    if (endpoint.nothingToDoStatus)
      responses[String(endpoint.nothingToDoStatus)] = {
        description: 'Nothing to do: an empty list, and no job queued',
        content: { 'application/json': { schema: envelopeFor({ type: 'array', maxItems: 0, items: {} }, endpoint.envelope) } },
      };
    const codes = errorCodesOf(endpoint);
    for (const status of [...new Set(codes.map((c) => ErrorCodes[c]))].sort()) {
      const here = codes.filter((c) => ErrorCodes[c] === status);
      responses[String(status)] = {
        description: here.join(', '),
        content: { 'application/json': { schema: failureFor(here, components) } },
      };
    }
    const operation: OperationObject = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      description: describeEndpoint(endpoint, codes),
      tags: [endpoint.tag],
      parameters: parameters(endpoint, components),
      responses,
      ...(endpoint.access === 'public' ? { security: [] } : { security: [{ bearer: [] }] }),
      ...(endpoint.capability ? { 'x-capability': endpoint.capability } : {}),
      ...(endpoint.access === 'admin' ? { 'x-role': 'admin' } : {}),
      // The API-key scope the endpoint belongs to (`account` and `admin`: never a key's).
      'x-scope': endpoint.scope,
    };
    if (endpoint.body) {
      const mediaType = endpoint.upload ? 'multipart/form-data' : 'application/json';
      operation.requestBody = {
        required: !endpoint.bodyOptional,
        content: { [mediaType]: { schema: toSchema(endpoint.body, components) } },
      };
    }
    builder.addPath(endpoint.path, { [endpoint.method.toLowerCase()]: operation });
  }
  toSchema(FailureEnvelope, components);
  toSchema(DetailFailure, components);
  for (const [name, schema] of [...components].sort(([a], [b]) => a.localeCompare(b))) builder.addSchema(name, schema);
  return builder.getSpec();
}

const nameOf = (schema: TSchema): string | undefined =>
  schema.$id ??
  schema.title ??
  (schema.type === 'array' && schema.items
    ? nameOf(schema.items as TSchema)
      ? `a list of ${nameOf(schema.items as TSchema)}`
      : undefined
    : undefined);

const WHO: Record<EndpointDef['access'], string> = {
  public: 'No token needed.',
  any: 'Any signed-in user (admin or viewer).',
  admin: 'Admins only.',
};

/**
 * What the endpoint table says of an endpoint, as one paragraph for generated clients and docs: what it
 * does, who may call it, what the game must support, what it answers and how it can fail.
 */
function scopeSentence(scope: string): string {
  return scope === 'account' || scope === 'admin'
    ? `API keys cannot call it (scope \`${scope}\`).`
    : `An API key needs the scope \`${scope}\`.`;
}

function describeEndpoint(endpoint: EndpointDef, codes: readonly string[]): string {
  const content = endpoint.responseMediaType ? `the content as ${endpoint.responseMediaType}` : 'the result';
  const answer =
    endpoint.status === 204 || !endpoint.response
      ? `${endpoint.status} with no content`
      : `${endpoint.status} with ${nameOf(endpoint.response) ?? content}`;
  return [
    `${endpoint.summary}.`,
    endpoint.notes ?? '',
    WHO[endpoint.access],
    scopeSentence(endpoint.scope),
    endpoint.capability ? `The server's game must have the \`${endpoint.capability}\` capability (else 400 NOT_SUPPORTED).` : '',
    endpoint.upload ? 'The body is a multipart form, streamed to disk.' : '',
    endpoint.dryRunStatus ? `A dry run answers ${endpoint.dryRunStatus}.` : '',
    `Answers ${answer}${codes.length ? `; fails with ${codes.join(', ')}` : ''}.`,
  ]
    .filter(Boolean)
    .join(' ');
}
