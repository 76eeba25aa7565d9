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

/** The spec's second failure form, raised by some web layers: clients must accept both. */
export const DetailFailure = Type.Object({ detail: ErrorBody }, { $id: 'DetailFailure' });

/**
 * The largest integer any request may carry, unless its schema says less: what a signed 32-bit column
 * holds on every database we run on, so that no value a client sends can overflow one (a 500).
 */
export const MAX_REQUEST_INTEGER = 2_147_483_647;

/** A record id in a path. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_REQUEST_INTEGER });

export const ServerIdParams = Type.Object({ server_id: Id });

/** Largest page a list endpoint serves. */
export const MAX_PAGE_SIZE = 500;

/** `limit` and `offset` of a list endpoint, with the page size it serves by default. */
export const pageQuery = (defaultLimit: number) => ({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE_SIZE, default: defaultLimit })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_REQUEST_INTEGER, default: 0 })),
});

export const PageQuery = Type.Object(pageQuery(50));

/** The `config_version` a change sends back: the version it was based on. */
export const ConfigVersion = Type.Integer({ minimum: 0, maximum: MAX_REQUEST_INTEGER });
