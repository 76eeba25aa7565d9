import { defineEndpoint } from '../endpoint.js';
import { Type } from '../typebox.js';
import {
  ChangePasswordRequest,
  CreateUserRequest,
  CreatedUser,
  LoginRequest,
  LoginResponse,
  UpdateUserRequest,
  User,
  UserIdParams,
  UserSummary,
} from './auth.js';
import { MessageResponse } from './common.js';
import { LoginSecondStepRequest, MfaChallenge } from './two-factor.js';

/** Getting a token: a password, then a code for an account with two-factor sign-in. */
export const signInEndpoints = {
  login: defineEndpoint({
    operationId: 'login',
    method: 'POST',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Exchange credentials for a token',
    access: 'public',
    scope: 'account',
    body: LoginRequest,
    status: 200,
    response: Type.Union([LoginResponse, MfaChallenge]),
    errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
    rateLimit: 'login',
    notes: 'A user with two-factor sign-in gets an `MfaChallenge` instead of the token: the second step is POST /auth/login/2fa.',
  }),
  loginTwoFactor: defineEndpoint({
    operationId: 'loginTwoFactor',
    method: 'POST',
    path: '/auth/login/2fa',
    tag: 'auth',
    summary: 'The second step of a sign-in with two factors: the code',
    access: 'public',
    scope: 'account',
    body: LoginSecondStepRequest,
    status: 200,
    response: LoginResponse,
    errors: ['UNAUTHORIZED', 'RATE_LIMITED'],
    // Codes are guessed as passwords are: the same limit per address, besides the account's own pause.
    rateLimit: 'login',
    notes:
      "A first step's `mfa_token` is good for one successful second step; 10 wrong codes in a row pause an account's second steps " +
      '(429 `RATE_LIMITED`, `Retry-After`; docs/security.md).',
  }),
} as const;

/** What a signed-in user does for themselves: who they are, their password, signing out. */
export const accountEndpoints = {
  logout: defineEndpoint({
    operationId: 'logout',
    method: 'POST',
    path: '/auth/logout',
    tag: 'auth',
    summary: 'Log out (the client forgets its token)',
    access: 'any',
    scope: 'account',
    status: 200,
    response: MessageResponse,
  }),
  me: defineEndpoint({
    operationId: 'me',
    method: 'GET',
    path: '/auth/me',
    tag: 'auth',
    summary: 'The caller',
    access: 'any',
    scope: 'account',
    status: 200,
    response: UserSummary,
  }),
  changePassword: defineEndpoint({
    operationId: 'changePassword',
    method: 'PUT',
    path: '/auth/password',
    tag: 'auth',
    summary: "Change one's own password",
    access: 'any',
    scope: 'account',
    body: ChangePasswordRequest,
    status: 200,
    response: MessageResponse,
    errors: ['UNAUTHORIZED'],
  }),
} as const;

/** The users of the service and their roles (admins). */
export const userEndpoints = {
  listUsers: defineEndpoint({
    operationId: 'listUsers',
    method: 'GET',
    path: '/auth/users',
    tag: 'auth',
    summary: 'List users',
    access: 'admin',
    scope: 'admin',
    status: 200,
    response: Type.Array(User),
  }),
  createUser: defineEndpoint({
    operationId: 'createUser',
    method: 'POST',
    path: '/auth/users',
    tag: 'auth',
    summary: 'Create a user',
    access: 'admin',
    scope: 'admin',
    body: CreateUserRequest,
    status: 201,
    response: CreatedUser,
    errors: ['CONFLICT'],
  }),
  updateUser: defineEndpoint({
    operationId: 'updateUser',
    method: 'PUT',
    path: '/auth/users/{user_id}',
    tag: 'auth',
    summary: "Change a user's role or set their password; their tokens end at once",
    access: 'admin',
    scope: 'admin',
    params: UserIdParams,
    body: UpdateUserRequest,
    status: 200,
    response: User,
    errors: ['NOT_FOUND'],
  }),
  deleteUser: defineEndpoint({
    operationId: 'deleteUser',
    method: 'DELETE',
    path: '/auth/users/{user_id}',
    tag: 'auth',
    summary: 'Delete a user',
    access: 'admin',
    scope: 'admin',
    params: UserIdParams,
    status: 204,
    errors: ['NOT_FOUND'],
  }),
} as const;
