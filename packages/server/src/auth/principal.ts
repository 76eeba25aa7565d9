import { userActor, type Actor, type UserSummary } from '@garrison/core';

/** The caller of a request, as read from the database on every request (so a deleted user is refused at once). */
export type Principal = UserSummary;

/** Who acts when a request's caller does. */
export const actorOf = (principal: Principal): Actor => userActor(principal);
