import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { endpoints, MAX_REQUEST_INTEGER, type TSchema } from '../src/index.js';

/** Every number schema under `schema`, with its path. */
function numbersIn(schema: TSchema, path: string, out: [string, TSchema][] = []): [string, TSchema][] {
  if (schema.type === 'integer' || schema.type === 'number') out.push([path, schema]);
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>))
    numbersIn(child, `${path}.${name}`, out);
  if (schema.items) numbersIn(schema.items as TSchema, `${path}[]`, out);
  for (const member of (schema.anyOf ?? []) as TSchema[]) numbersIn(member, path, out);
  return out;
}

describe('request bounds', () => {
  it('give every number a client may send a minimum and a maximum that every database holds', () => {
    const unbounded: string[] = [];
    for (const endpoint of Object.values(endpoints)) {
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = (endpoint as { [k: string]: unknown })[part] as TSchema | undefined;
        if (!schema) continue;
        for (const [path, n] of numbersIn(schema, `${endpoint.operationId}.${part}`)) {
          const ok =
            typeof n.minimum === 'number' &&
            n.minimum >= -MAX_REQUEST_INTEGER &&
            typeof n.maximum === 'number' &&
            n.maximum <= MAX_REQUEST_INTEGER;
          if (!ok) unbounded.push(path);
        }
      }
    }
    assert.deepEqual(unbounded, []);
  });
});
