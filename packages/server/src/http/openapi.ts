import { OpenApiBuilder, type OpenAPIObject, type OperationObject, type ParameterObject, type SchemaObject } from 'openapi3-ts/oas31';
import { ErrorCodes, FailureEnvelope, type EndpointDef, type TSchema } from '@garrison/core';

/** Replaces every nested schema that has an `$id` by a reference, registering it under components.schemas. */
function toSchema(schema: TSchema, components: Map<string, SchemaObject>): SchemaObject {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const { $id, ...rest } = node as Record<string, unknown>;
    const converted = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]));
    if (typeof $id !== 'string') return converted;
    if (!components.has($id)) components.set($id, converted as SchemaObject);
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
  for (const [where, schema] of [['path', endpoint.params], ['query', endpoint.query]] as const) {
    if (!schema) continue;
    for (const [name, prop] of Object.entries(schema.properties)) {
      out.push({ name, in: where, required: where === 'path' || (schema.required ?? []).includes(name), schema: toSchema(prop, components) });
    }
  }
  return out;
}

/** The OpenAPI 3.1 document of the implemented endpoints, derived from core's endpoint table. */
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
    responses[String(endpoint.status)] = endpoint.status === 204 || !endpoint.response
      ? { description: 'No content' }
      : endpoint.responseMediaType
        ? { description: 'Success', content: { [endpoint.responseMediaType]: { schema: toSchema(endpoint.response, components) } } }
        : { description: 'Success', content: { 'application/json': { schema: envelopeFor(toSchema(endpoint.response, components), endpoint.envelope) } } };
    const failure = { $ref: '#/components/schemas/FailureEnvelope' };
    const statuses = new Set<number>([...(endpoint.errors ?? []).map((c) => ErrorCodes[c]), 400, 429]);
    if (endpoint.access !== 'public') statuses.add(401);
    if (endpoint.access === 'admin') statuses.add(403);
    for (const status of [...statuses].sort()) {
      const codes = (endpoint.errors ?? []).filter((c) => ErrorCodes[c] === status);
      responses[String(status)] = {
        description: codes.length ? codes.join(', ') : 'Failure',
        content: { 'application/json': { schema: failure } },
      };
    }
    const operation: OperationObject = {
      operationId: endpoint.operationId,
      summary: endpoint.summary,
      tags: [endpoint.tag],
      parameters: parameters(endpoint, components),
      responses,
      ...(endpoint.access === 'public' ? { security: [] } : { security: [{ bearer: [] }] }),
      ...(endpoint.capability ? { 'x-capability': endpoint.capability } : {}),
      ...(endpoint.access === 'admin' ? { 'x-role': 'admin' } : {}),
    };
    if (endpoint.body) {
      const mediaType = endpoint.upload ? 'multipart/form-data' : 'application/json';
      operation.requestBody = { required: !endpoint.bodyOptional, content: { [mediaType]: { schema: toSchema(endpoint.body, components) } } };
    }
    builder.addPath(endpoint.path, { [endpoint.method.toLowerCase()]: operation });
  }
  toSchema(FailureEnvelope, components);
  for (const [name, schema] of [...components].sort(([a], [b]) => a.localeCompare(b))) builder.addSchema(name, schema);
  return builder.getSpec();
}
