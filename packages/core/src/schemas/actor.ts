import { Type, type Static } from '../typebox.js';
import { Nullable } from './common.js';

/**
 * Who made something happen: a person (`user`), a bot's key (`api_key`), a schedule, the service by
 * itself (`system`), or another instance of the service (`node`). Every entry point names one, and the
 * audit trail records it.
 */
export const ACTOR_KINDS = ['user', 'api_key', 'schedule', 'system', 'node'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export const ActorKindSchema = Type.Union(ACTOR_KINDS.map((k) => Type.Literal(k)));

export const Actor = Type.Object(
  {
    kind: ActorKindSchema,
    /** The user's, key's, schedule's or node's id; null for the system. */
    id: Nullable(Type.String()),
    name: Type.String(),
  },
  { $id: 'Actor' },
);
export type Actor = Static<typeof Actor>;

/** The service acting by itself (the supervisor, a periodic job). */
export const SYSTEM_ACTOR: Actor = { kind: 'system', id: null, name: 'system' };

export const userActor = (user: { id: number; username: string }): Actor => ({ kind: 'user', id: String(user.id), name: user.username });
