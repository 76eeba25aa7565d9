import fc from 'fast-check';
import { KEY_SCOPES, type KeyScope } from '@garrison/core';

/** The parts of the served OpenAPI document the fuzzer reads. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}
interface Operation {
  security?: unknown[];
  'x-role'?: string;
  'x-scope': string;
  parameters?: { name: string; in: 'path' | 'query'; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
type JsonSchema = Record<string, any>;

/** One route of the document. */
export interface Route {
  method: string;
  path: string;
  operation: Operation;
  access: 'public' | 'any' | 'admin';
  /** The API-key scope it belongs to. */
  scope: string;
}

export function routesOf(doc: OpenApiDoc): Route[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
      access: operation.security?.length === 0 ? 'public' : operation['x-role'] === 'admin' ? 'admin' : 'any',
      scope: operation['x-scope'],
    })),
  );
}

/** Words the fuzzer mixes into what it makes up: ids and names that exist, so it gets past a 404 now and then. */
export interface Dictionary {
  /** Values known to exist, by parameter name (`server_id`, `section`, `game_type`, …). */
  values: Record<string, string[]>;
  /** Property names known to the service (config fields), to put into bodies. */
  fieldNames: string[];
}

/** Callers: users by token, API keys of an admin with one scope each (and a revoked one), and every kind of wrong credential. */
export type Identity =
  | 'admin'
  | 'viewer'
  | `key:${KeyScope}`
  | 'key-revoked'
  | 'anonymous'
  | 'forged'
  | 'alg-none'
  | 'expired'
  | 'garbage'
  | 'deleted-user'
  | 'not-bearer';

export interface FuzzRequest {
  route: string;
  identity: Identity;
  method: string;
  /** Below /api, with the query. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** What the body is, for the failure message. */
  bodyKind: string;
}

const ODD_INTEGERS = [
  '0',
  '-1',
  '-0',
  '1.5',
  '+1',
  '1e3',
  '0x10',
  '%201',
  '1%20',
  '9223372036854775808',
  '2147483648',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '1,2',
  '%D9%A1',
  'null',
  'true',
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  '%5C',
  '',
  '01',
  '%E0%A4%A',
];
const ODD_STRINGS = [
  '..',
  '%2e%2e%2f',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%C0%AE',
  'a'.repeat(300),
  '%F0%9F%92%A5',
  '%20',
  '*',
  '%27%20OR%201%3D1',
  '%7B%7D',
];
const ODD_QUERY_VALUES = [
  '',
  '1.5',
  'true',
  '-1',
  '%2B1',
  '1e3',
  '9223372036854775808',
  '18446744073709551616',
  '1e21',
  '%00',
  '%FF',
  'a'.repeat(200),
  '[]',
  'null',
];

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** A value that fits `schema` more or less: the edges of its bounds, and now and then something just past them. */
function valueFor(schema: JsonSchema, doc: OpenApiDoc, dict: Dictionary, depth = 0): fc.Arbitrary<unknown> {
  if (schema.$ref) return valueFor(doc.components.schemas[String(schema.$ref).split('/').pop()!], doc, dict, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as JsonSchema[]).map((s) => valueFor(s, doc, dict, depth)));
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 1_000_000;
      return fc.oneof(
        fc.constantFrom(min, max, min - 1, max + 1, 0, 2 ** 31, 2 ** 53, -(2 ** 53)),
        schema.type === 'integer'
          ? fc.integer({ min: Math.max(min, -1e9), max: Math.min(max, 1e9) })
          : fc.double({ min, max, noNaN: true }),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constantFrom(
          '',
          'admin',
          'viewer',
          'gameaserver_x64.exe',
          '/srv/gamea/gameaserver_x64.exe',
          '***',
          'a'.repeat((schema.maxLength ?? 100) + 1),
        ),
        fc.string({ unit: 'binary', maxLength: 20 }),
      );
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueFor(schema.items ?? {}, doc, dict, depth + 1), { maxLength: 5 });
    case 'object': {
      if (depth > 3) return fc.constant({});
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set<string>(schema.required ?? []);
      const known = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, valueFor(s, doc, dict, depth + 1)]));
      const base = fc.record(known, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
      if (schema.additionalProperties === false) return base;
      // Open objects (a config section's fields) get the service's own field names as well.
      const extra = fc.dictionary(fc.constantFrom(...dict.fieldNames, 'x'), anyJson(depth + 1), { maxKeys: 4 });
      return fc.tuple(base, extra).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      return anyJson(depth);
  }
}

function anyJson(depth: number): fc.Arbitrary<unknown> {
  return depth > 3 ? fc.constantFrom(null, 1, 'x') : fc.jsonValue({ maxDepth: 2 });
}

const deeplyNested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** A body: a fitting one, one with a mistake, or something that is not the JSON asked for at all. */
function bodyFor(
  schema: JsonSchema | undefined,
  doc: OpenApiDoc,
  dict: Dictionary,
): fc.Arbitrary<{ kind: string; bytes: Uint8Array; type?: string }> {
  const fitting = schema ? valueFor(schema, doc, dict) : fc.constant({});
  const as = (kind: string) => (value: unknown) => ({ kind, bytes: json(value) });
  return fc.oneof(
    { weight: 6, arbitrary: fitting.map(as('fitting')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fitting, fc.string({ minLength: 1, maxLength: 12 }), anyJson(0))
        .map(([v, k, x]) =>
          as('extra or wrong-typed field')(typeof v === 'object' && v && !Array.isArray(v) ? { ...v, [k]: x } : { [k]: x }),
        ),
    },
    {
      weight: 2,
      arbitrary: fitting.chain((v) => {
        const keys = typeof v === 'object' && v && !Array.isArray(v) ? Object.keys(v) : [];
        if (!keys.length) return fc.constant(as('fitting')(v));
        return fc
          .tuple(fc.constantFrom(...keys), fc.constantFrom(null, 1.5, -1, 'str', true, [], {}, '\u0000', 'a'.repeat(5000)))
          .map(([k, bad]) => as(`field ${k} as ${JSON.stringify(bad).slice(0, 20)}`)({ ...(v as object), [k]: bad }));
      }),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, [], 1, 'text', true, [{}]).map(as('not an object')) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{',
          '{"a":}',
          "{'a':1}",
          'nul',
          '{"a":1}}',
          '\u0000',
          '{"a":"\\ud800"}',
          '{"__proto__":{"admin":true}}',
          '{"constructor":{"prototype":{"x":1}}}',
        )
        .map((text) => ({
          kind: `malformed JSON ${JSON.stringify(text)}`,
          bytes: new TextEncoder().encode(text),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(10, 1000, 20_000)
        .map((d) => ({ kind: `nested ${d} deep`, bytes: new TextEncoder().encode(deeplyNested(d)) })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(100_000, 1_100_000).map((n) => ({
        kind: `${n}-character string`,
        bytes: json({ name: 'x'.repeat(n), command: 'x'.repeat(n), username: 'x'.repeat(n) }),
      })),
    },
    {
      weight: 1,
      arbitrary: fitting.chain((v) =>
        fc.constantFrom(
          {
            kind: 'UTF-16 JSON',
            bytes: new Uint8Array(Buffer.from(JSON.stringify(v), 'utf16le')),
            type: 'application/json; charset=utf-16',
          },
          {
            kind: 'JSON with a BOM',
            bytes: new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(v))])),
          },
          { kind: 'invalid UTF-8', bytes: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
          { kind: 'latin1 charset', bytes: json(v), type: 'application/json; charset=latin1' },
          { kind: 'unknown charset', bytes: json(v), type: 'application/json; charset=klingon' },
          { kind: 'text/plain', bytes: json(v), type: 'text/plain' },
          { kind: 'form', bytes: new TextEncoder().encode('a=1&b=2'), type: 'application/x-www-form-urlencoded' },
          { kind: 'multipart without boundary', bytes: json(v), type: 'multipart/form-data' },
        ),
      ),
    },
  );
}

function pathValue(name: string, schema: JsonSchema, dict: Dictionary): fc.Arbitrary<string> {
  const known = dict.values[name] ?? [];
  const odd = schema.type === 'integer' ? ODD_INTEGERS : ODD_STRINGS;
  return fc.oneof(
    ...(known.length ? [{ weight: 8, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...odd) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  );
}

function queryFor(parameters: Operation['parameters'], doc: OpenApiDoc, dict: Dictionary): fc.Arbitrary<string> {
  const query = (parameters ?? []).filter((p) => p.in === 'query');
  const fitting = (p: { name: string; schema: JsonSchema }) =>
    valueFor(p.schema, doc, dict).map((v) => `${p.name}=${encodeURIComponent(String(v))}`);
  const odd = (p: { name: string; schema: JsonSchema }) =>
    fc.oneof(
      fc.constantFrom(...(p.schema.type === 'integer' ? ODD_INTEGERS : []), ...ODD_QUERY_VALUES).map((v) => `${p.name}=${v}`),
      fc.constant(`${p.name}=1&${p.name}=2`),
    );
  const extras = fc.constantFrom('', '', '', 'unknown=1', 'token=abc', '%00=1', 'a[b]=1', '__proto__=1');
  const fittingAll = fc.tuple(...query.map((p) => fc.option(fitting(p), { nil: undefined })));
  // Mostly one odd value among fitting ones, so that it is the one the service has to deal with.
  const oneOdd = query.length
    ? fc
        .tuple(
          fittingAll,
          fc.nat(query.length - 1).chain((i) => fc.tuple(fc.constant(i), odd(query[i]))),
        )
        .map(([parts, [i, v]]) => parts.map((p, j) => (j === i ? v : p)))
    : fittingAll;
  return fc.tuple(fc.oneof(fittingAll, oneOdd), extras).map(([parts, extra]) => [...parts, extra].filter(Boolean).join('&'));
}

/** Requests over every route of the document, as every kind of caller, right and wrong in every part. */
export function requestArbitrary(doc: OpenApiDoc, dict: Dictionary): fc.Arbitrary<FuzzRequest> {
  const routes = routesOf(doc);
  const identity = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Identity>('admin') },
    { weight: 4, arbitrary: fc.constant<Identity>('viewer') },
    { weight: 4, arbitrary: fc.constantFrom<Identity>(...KEY_SCOPES.map((s) => `key:${s}` as const), 'key-revoked') },
    {
      weight: 5,
      arbitrary: fc.constantFrom<Identity>('anonymous', 'forged', 'alg-none', 'expired', 'garbage', 'deleted-user', 'not-bearer'),
    },
  );
  return fc.constantFrom(...routes).chain((route) => {
    const params = (route.operation.parameters ?? []).filter((p) => p.in === 'path');
    const schema = route.operation.requestBody?.content['application/json']?.schema;
    return fc
      .record({
        identity,
        path: fc.tuple(...params.map((p) => pathValue(p.name, p.schema, dict))),
        query: queryFor(route.operation.parameters, doc, dict),
        body: fc.option(bodyFor(schema, doc, dict), { nil: undefined, freq: schema ? 8 : 2 }),
        method: fc.oneof(
          { weight: 19, arbitrary: fc.constant(route.method) },
          { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
        ),
      })
      .map(({ identity, path, query, body, method }) => {
        let i = 0;
        const filled = route.path.replace(/\{\w+\}/g, () => path[i++]);
        const headers: Record<string, string> = {};
        if (body) headers['content-type'] = body.type ?? 'application/json';
        return {
          route: `${route.method} ${route.path}`,
          identity,
          method,
          path: query ? `${filled}?${query}` : filled,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : body?.bytes,
          bodyKind: body && method !== 'GET' && method !== 'HEAD' ? body.kind : 'none',
        };
      });
  });
}
