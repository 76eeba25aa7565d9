import { userActor, type Actor, type KeyScope, type UserSummary } from '@garrison/core';

/** What an API key lets its bearer do, besides its owner's current role. */
export interface KeyGrant {
  id: number;
  name: string;
  scopes: readonly KeyScope[];
  /** Only these servers; null: every server. */
  server_ids: readonly number[] | null;
}

/**
 * The caller of a request, as read from the database on every request (so a deleted user is refused at
 * once): a user, through a session token or through one of their API keys (`key`).
 */
export type Principal = UserSummary & {
  key?: KeyGrant;
  session_id?: string;
  /** Two-factor sign-in is required of this user and they have none yet: they may only enrol. */
  must_enrol?: boolean;
};

/** Who acts when a request's caller does: the user, or their key (named with its owner, for the audit trail). */
export const actorOf = (principal: Principal): Actor =>
  principal.key
    ? { kind: 'api_key', id: String(principal.key.id), name: `${principal.key.name} (key of ${principal.username})` }
    : userActor(principal);

/** An admin signed in with a session, not through an API key (no key may manage webhooks or users). */
export const isSessionAdmin = (principal: Principal): boolean => principal.role === 'admin' && !principal.key;
