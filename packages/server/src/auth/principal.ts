import type { Role } from '@garrison/core';

/** The caller of a request, as read from the database on every request (so a deleted user is refused at once). */
export interface Principal {
  id: number;
  username: string;
  role: Role;
}
