import { ApiError, type TObject, type TSchema } from '@garrison/core';

/**
 * Path and query values arrive as strings and are converted by the schema, strictly: a value that does
 * not spell the type exactly is refused, never rounded, truncated or coerced. `1.5`, `+1`, `1 ` and
 * `1e3` are not integers; `1`, `yes` and `TRUE` are not booleans. Lenient conversion once let
 * `DELETE /servers/1.5` delete server 1.
 */

const INTEGER = /^\d+$/;
const SIGNED_INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

type Where = 'path' | 'query';

class NotSpelled extends Error {}

function convertOne(schema: TSchema, raw: string): unknown {
  switch (schema.type) {
    case 'integer': {
      const allowsNegative = !(typeof schema.minimum === 'number' && schema.minimum >= 0);
      if (!(allowsNegative ? SIGNED_INTEGER : INTEGER).test(raw)) {
        throw new NotSpelled(`expected ${allowsNegative ? 'an integer' : 'a whole number'} in decimal digits`);
      }
      const value = Number(raw);
      if (!Number.isSafeInteger(value)) throw new NotSpelled('integer out of range');
      return value;
    }
    case 'number':
      if (!NUMBER.test(raw)) throw new NotSpelled('expected a decimal number');
      return Number(raw);
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw new NotSpelled('expected true or false');
      return raw === 'true';
    default:
      // Strings and unions of string literals are checked as they are by the schema.
      return raw;
  }
}

/**
 * Converts the raw values of one request part (`ctx.params`, `ctx.query`) by the properties of `schema`.
 * A parameter given more than once is refused unless its schema is an array. Unknown parameters are
 * passed through for the schema to refuse or ignore.
 */
export function convertStrictly(
  schema: TObject,
  raw: Record<string, string | string[] | undefined>,
  where: Where,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const what = where === 'path' ? 'path parameter' : 'query parameter';
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const property = schema.properties[name];
    if (!property) {
      out[name] = value;
      continue;
    }
    try {
      if (property.type === 'array') {
        out[name] = (Array.isArray(value) ? value : [value]).map((v) => convertOne(property.items as TSchema, v));
      } else if (Array.isArray(value)) {
        throw new NotSpelled('given more than once');
      } else {
        out[name] = convertOne(property, value);
      }
    } catch (err) {
      if (!(err instanceof NotSpelled)) throw err;
      const shown = JSON.stringify(Array.isArray(value) ? value : value.length > 40 ? `${value.slice(0, 40)}…` : value);
      throw new ApiError('VALIDATION_ERROR', `${what} '${name}': ${err.message}, got ${shown}`);
    }
  }
  return out;
}
