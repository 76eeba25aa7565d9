import { Type } from '../typebox.js';
import { ApiError } from '../errors.js';
import { Nullable, pageQuery, ServerIdParams } from './common.js';

export const LogLevelSchema = Type.Union([Type.Literal('debug'), Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]);

/** An ISO 8601 instant in a query, checked by pattern so that every validator reads it the same way. */
export const QueryTimestamp = Type.String({
  maxLength: 40,
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?)?$',
  description: 'ISO 8601, e.g. 2026-11-23T10:00:00Z',
});

/**
 * A query instant as milliseconds. The pattern lets through what no calendar has (month 13, hour 25,
 * an offset of +99:99): those are a 400 naming the field, never a 500 or an empty answer.
 */
export function queryInstantMs(value: string, field: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new ApiError('VALIDATION_ERROR', `field '${field}': ${JSON.stringify(value)} is not a date and time`);
  return ms;
}

export const LogQuery = Type.Object({
  ...pageQuery(200),
  level: Type.Optional(LogLevelSchema),
  since: Type.Optional(QueryTimestamp),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const LogLine = Type.Object(
  { id: Type.Integer(), timestamp: Type.String({ format: 'date-time' }), level: LogLevelSchema, message: Type.String() },
  { $id: 'LogLine' },
);

export const LogPage = Type.Object({ total: Type.Integer(), logs: Type.Array(LogLine) }, { $id: 'LogPage', description: 'Newest first.' });

export const MetricsQuery = Type.Object({
  from: Type.Optional(QueryTimestamp),
  to: Type.Optional(QueryTimestamp),
  resolution: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 10_080, description: 'Minutes per point; samples in a bucket are averaged.' }),
  ),
});

export const MetricsPoint = Type.Object(
  {
    timestamp: Type.String({ format: 'date-time' }),
    cpu_percent: Type.Number(),
    ram_mb: Type.Number(),
    player_count: Nullable(Type.Number()),
  },
  { $id: 'MetricsPoint' },
);

/** `data` of a `metrics` event: the server's sample, and one for each of its headless clients that runs. */
export const MetricsEventData = Type.Object({
  ...MetricsPoint.properties,
  headless: Type.Optional(
    Type.Array(Type.Object({ index: Type.Integer(), pid: Type.Integer(), cpu_percent: Type.Number(), ram_mb: Type.Number() }), {
      description: 'The headless clients that run, sampled with the server (left out when it has none).',
    }),
  ),
});

/** A file name in a path: one name, never a path (checked again against the folder it must stay in). */
export const FileNameParams = Type.Object({
  ...ServerIdParams.properties,
  filename: Type.String({ minLength: 1, maxLength: 255 }),
});

export const LogFile = Type.Object(
  { filename: Type.String(), size_bytes: Type.Integer(), modified_at: Type.String({ format: 'date-time' }) },
  { $id: 'LogFile' },
);

export const FileText = Type.String({ description: 'The file as it is, streamed.' });
