import { Type, type Static } from '../typebox.js';
import { Id, Nullable, Timestamp } from './common.js';
import { KEY_SCOPES } from './scopes.js';
import { QueryTimestamp } from './live.js';

export const KeyScopeSchema = Type.Union(KEY_SCOPES.map((s) => Type.Literal(s)));

const Cidr = Type.String({
  minLength: 3,
  maxLength: 50,
  pattern: '^[0-9A-Fa-f:.]+/[0-9]{1,3}$',
  description: 'An address range the key may be used from: `203.0.113.0/24`, `2001:db8::/32`; a single address is `/32` or `/128`.',
});

export const CreateApiKeyRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for ("Discord bot").' }),
    scopes: Type.Array(KeyScopeSchema, { minItems: 1, maxItems: KEY_SCOPES.length, uniqueItems: true }),
    server_ids: Type.Optional(
      Nullable(
        Type.Array(Id, {
          minItems: 1,
          maxItems: 1000,
          uniqueItems: true,
          description: 'Only these servers; absent or null: every server.',
        }),
      ),
    ),
    cidrs: Type.Optional(
      Nullable(
        Type.Array(Cidr, { minItems: 1, maxItems: 50, description: 'Only from these address ranges; absent or null: from anywhere.' }),
      ),
    ),
    expires_at: Type.Optional(
      Nullable(
        Type.String({ ...QueryTimestamp, description: 'When it stops working (ISO 8601); absent: in 90 days; null: never (admins only).' }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiKeyRequest = Static<typeof CreateApiKeyRequest>;

export const ApiKey = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    owner: Type.Object({ id: Type.Integer(), username: Type.String() }),
    scopes: Type.Array(KeyScopeSchema),
    server_ids: Nullable(Type.Array(Type.Integer())),
    cidrs: Nullable(Type.Array(Type.String())),
    expires_at: Nullable(Timestamp),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    last_used_address: Nullable(Type.String()),
    prefix: Type.String({ description: 'The start of the key (`gar_12_ab…`), to tell keys apart; the rest is never shown again.' }),
  },
  { $id: 'ApiKey' },
);
export type ApiKey = Static<typeof ApiKey>;

export const CreatedApiKey = Type.Intersect(
  [ApiKey, Type.Object({ key: Type.String({ description: 'Shown once: `gar_<id>_<secret>`, sent as `Authorization: Bearer`.' }) })],
  {
    $id: 'CreatedApiKey',
  },
);

export const ApiKeyQuery = Type.Object({
  all: Type.Optional(Type.Boolean({ default: false, description: "Everyone's keys (admins only); otherwise one's own." })),
});

export const ApiKeyIdParams = Type.Object({ key_id: Id });

export const Session = Type.Object(
  {
    id: Type.String(),
    created_at: Timestamp,
    last_seen_at: Timestamp,
    address: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
    expires_at: Timestamp,
    current: Type.Boolean({ description: 'The session of the token this request came with.' }),
  },
  { $id: 'Session' },
);
export type Session = Static<typeof Session>;

export const SessionIdParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' }) });
