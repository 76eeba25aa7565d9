import { Type, type Static } from '../typebox.js';
import { Id, Nullable, Timestamp } from './common.js';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('viewer')]);
export type Role = Static<typeof Role>;

export const Username = Type.String({ minLength: 3, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' });
export const NewPassword = Type.String({ minLength: 8, maxLength: 1024 });

export const UserSummary = Type.Object({ id: Type.Integer(), username: Type.String(), role: Role }, { $id: 'UserSummary' });
export type UserSummary = Static<typeof UserSummary>;

export const User = Type.Object({ ...UserSummary.properties, created_at: Timestamp, last_login: Nullable(Timestamp) }, { $id: 'User' });
export type User = Static<typeof User>;

export const LoginRequest = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 256 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);

export const LoginResponse = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('bearer'), expires_in: Type.Integer(), user: UserSummary },
  { $id: 'LoginResponse' },
);

export const ChangePasswordRequest = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 1024 }), new_password: NewPassword },
  { additionalProperties: false },
);

export const CreateUserRequest = Type.Object(
  { username: Username, password: NewPassword, role: Type.Optional(Role) },
  { additionalProperties: false },
);

/** An admin's change to another user (`PUT /auth/users/{user_id}`): at least one of the two. */
export const UpdateUserRequest = Type.Object(
  { role: Type.Optional(Role), password: Type.Optional(NewPassword) },
  { additionalProperties: false, minProperties: 1 },
);

export const CreatedUser = Type.Object({ ...UserSummary.properties, created_at: Timestamp }, { $id: 'CreatedUser' });

export const UserIdParams = Type.Object({ user_id: Id });
