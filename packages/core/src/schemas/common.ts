import { Type, type TSchema } from '../typebox.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp (UTC)' });

export const MessageResponse = Type.Object({ message: Type.String() }, { $id: 'MessageResponse' });

export const ErrorBody = Type.Object(
  { code: Type.String(), message: Type.String() },
  { $id: 'ErrorBody', additionalProperties: true, description: 'A conflict may add members such as current_config.' },
);

export const FailureEnvelope = Type.Object(
  { success: Type.Literal(false), data: Type.Null(), error: ErrorBody },
  { $id: 'FailureEnvelope' },
);

export const ServerIdParams = Type.Object({ server_id: Type.Integer({ minimum: 1 }) });

/** Largest page a list endpoint serves. */
export const MAX_PAGE_SIZE = 500;

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE_SIZE, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
