import { Type, type Static } from '../typebox.js';
import { Id, Nullable, pageQuery, ServerIdParams, Timestamp } from './common.js';

export const Player = Type.Object(
  {
    slot_id: Type.String(),
    name: Type.String(),
    ping: Type.Integer(),
    guid: Type.Optional(
      Nullable(
        Type.String({
          description: 'Admins only: the identity the game reported (what a ban takes), null until it has.',
        }),
      ),
    ),
    ip: Type.Optional(
      Nullable(
        Type.String({
          description: 'Admins only: the address the player connects from (without the port), null when the game does not say.',
        }),
      ),
    ),
  },
  {
    $id: 'Player',
    description:
      'A player on the server. `guid` and `ip` are in the answers to admins only, never in `players` events, which every role receives.',
  },
);

export const PlayerList = Type.Object(
  { server_id: Type.Integer(), player_count: Type.Integer(), players: Type.Array(Player) },
  { $id: 'PlayerList', description: 'From the latest remote-admin poll; empty while the server does not run.' },
);

export const PlayerHistoryQuery = Type.Object({
  ...pageQuery(100),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const PlayerHistoryRecord = Type.Object(
  { id: Type.Integer(), player_name: Type.String(), guid: Type.String(), joined_at: Timestamp, left_at: Nullable(Timestamp) },
  {
    $id: 'PlayerHistoryRecord',
    description: '`guid`: the identity the game reported, empty until then; `left_at`: null while on.',
  },
);

export const PlayerHistoryPage = Type.Object(
  { total: Type.Integer(), items: Type.Array(PlayerHistoryRecord) },
  { $id: 'PlayerHistoryPage' },
);

export const PlayerSlotParams = Type.Object({
  ...ServerIdParams.properties,
  slot_id: Type.String({ minLength: 1, maxLength: 16, pattern: '^\\d+$' }),
});

const Reason = Type.String({ maxLength: 500, pattern: '^[^\\x00-\\x1f\\x7f]*$' });

export const KickRequest = Type.Object({ reason: Reason }, { additionalProperties: false });

export const PlayerBanRequest = Type.Object(
  { reason: Reason, duration_minutes: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 52_560_000 }))) },
  { additionalProperties: false },
);

const identityKindName = (description: string) => Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 32, description });

/** An identity kind of the server's game, as its adapter declares them (`GUID`, `IP`, `STEAMID`). */
export const BanType = identityKindName('An identity kind of the game (`identity_kinds` of `GET /games/{game_type}`): `GUID`, `IP`…');

export const Ban = Type.Object(
  {
    id: Type.Integer(),
    server_id: Type.Integer(),
    guid: Type.String({
      description: '`player_uid` as the game normalizes it (a GUID in lower case).',
    }),
    name: Nullable(Type.String()),
    reason: Type.String(),
    banned_by: Type.String(),
    ban_type: BanType,
    duration_minutes: Type.Integer(),
    expires_at: Nullable(Timestamp),
    created_at: Timestamp,
    source: Type.Union([Type.Literal('api'), Type.Literal('file')], {
      description:
        "`api`: created through Garrison; `file`: found in the game's ban file, written there by the game, another tool or a person.",
    }),
  },
  { $id: 'Ban' },
);
export type Ban = Static<typeof Ban>;

export const CreateBanRequest = Type.Object(
  {
    player_uid: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'A value of the kind `ban_type` names.',
    }),
    ban_type: Type.Optional(identityKindName("The kind of `player_uid`; the default is the game's first.")),
    reason: Type.Optional(Reason),
    duration_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 52_560_000, description: '0: permanent' })),
  },
  { additionalProperties: false },
);

export const CreatedBan = Type.Object(
  {
    id: Type.Integer(),
    server_id: Type.Integer(),
    guid: Type.String({ description: '`player_uid` as the game normalizes it.' }),
    reason: Type.String(),
    ban_type: BanType,
    expires_at: Nullable(Timestamp),
  },
  { $id: 'CreatedBan' },
);

export const BanListQuery = Type.Object({
  ...pageQuery(50),
  active_only: Type.Optional(Type.Boolean({ default: true })),
});

export const BanIdParams = Type.Object({ ...ServerIdParams.properties, ban_id: Id });

export const SayRequest = Type.Object(
  { message: Type.String({ minLength: 1, maxLength: 1000, pattern: '^[^\\x00-\\x1f\\x7f]+$' }) },
  { additionalProperties: false },
);
