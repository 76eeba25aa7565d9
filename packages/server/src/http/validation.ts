import { ApiError, TypeCompiler, Value, type TObject, type TSchema, type TypeCheck, type ValueError } from '@garrison/core';
import { convertStrictly } from './strict-conversion.js';

export type InputPart = 'body' | 'query' | 'path';

function fieldOf(error: ValueError): string {
  return error.path.replace(/^\//, '').replace(/\//g, '.');
}

/** The first failure as a sentence that names the field, e.g. `game_port: Expected integer to be less or equal to 65535`. */
export function describeFailure(part: InputPart, errors: Iterable<ValueError>): string {
  const first = errors[Symbol.iterator]().next().value as ValueError | undefined;
  if (!first) return `invalid ${part}`;
  const field = fieldOf(first);
  const what = part === 'body' ? 'field' : part === 'query' ? 'query parameter' : 'path parameter';
  if (!field) return `${part === 'body' ? 'request body' : part}: ${first.message}`;
  if (first.message === 'Unexpected property') return `unknown ${what} '${field}'`;
  if (first.message === 'Expected required property') return `${what} '${field}' is required`;
  const allowed = allowedValues(first.schema);
  if (allowed) return `${what} '${field}': must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${what} '${field}': ${first.message}`;
}

/** The values a union of literals (or an enum) allows, so that a refusal can name them. */
function allowedValues(schema: TSchema): unknown[] | null {
  const s = schema as { anyOf?: { const?: unknown }[]; enum?: unknown[] };
  if (Array.isArray(s.enum)) return s.enum;
  if (Array.isArray(s.anyOf) && s.anyOf.length > 0 && s.anyOf.every((o) => o && 'const' in o)) return s.anyOf.map((o) => o.const);
  return null;
}

/** A schema compiled once, checking (and for query and path, converting) one part of a request. */
export class InputValidator<T = unknown> {
  private readonly check: TypeCheck<TSchema>;

  constructor(
    private readonly schema: TSchema,
    private readonly part: InputPart,
    private readonly code: 'VALIDATION_ERROR' | 'INVALID_CONFIG' = 'VALIDATION_ERROR',
  ) {
    this.check = TypeCompiler.Compile(schema);
  }

  parse(input: unknown): T {
    let value = input;
    if (this.part !== 'body') {
      // Query and path values arrive as strings: convert by the schema, then fill defaults.
      value = Value.Default(this.schema, convertStrictly(this.schema as TObject, input as Record<string, string>, this.part));
    }
    if (!this.check.Check(value)) {
      throw new ApiError(this.code, describeFailure(this.part, this.check.Errors(value)));
    }
    return value as T;
  }
}
