import { defineEndpoint } from '../endpoint.js';
import { MessageResponse } from './common.js';
import { DisableTwoFactorRequest, RecoveryCodes, TwoFactorCodeRequest, TwoFactorSetup, TwoFactorStatus } from './two-factor.js';

/** One's own two-factor sign-in (TOTP): enrolled, turned on with a code, turned off. */
export const twoFactorEndpoints = {
  getTwoFactor: defineEndpoint({
    operationId: 'getTwoFactor',
    method: 'GET',
    path: '/auth/2fa',
    tag: 'auth',
    summary: 'Whether one has two-factor sign-in, and whether it is required',
    access: 'any',
    scope: 'account',
    status: 200,
    response: TwoFactorStatus,
  }),
  setupTwoFactor: defineEndpoint({
    operationId: 'setupTwoFactor',
    method: 'POST',
    path: '/auth/2fa/setup',
    tag: 'auth',
    summary: 'Start enrolling: a new secret for the authenticator app',
    access: 'any',
    scope: 'account',
    status: 200,
    response: TwoFactorSetup,
    errors: ['CONFLICT'],
  }),
  enableTwoFactor: defineEndpoint({
    operationId: 'enableTwoFactor',
    method: 'POST',
    path: '/auth/2fa/enable',
    tag: 'auth',
    summary: "Turn it on with the app's code; answers the recovery codes, once",
    access: 'any',
    scope: 'account',
    body: TwoFactorCodeRequest,
    status: 200,
    response: RecoveryCodes,
    errors: ['CONFLICT', 'VALIDATION_ERROR'],
  }),
  disableTwoFactor: defineEndpoint({
    operationId: 'disableTwoFactor',
    method: 'POST',
    path: '/auth/2fa/disable',
    tag: 'auth',
    summary: 'Turn it off, with the password and a code',
    access: 'any',
    scope: 'account',
    body: DisableTwoFactorRequest,
    status: 200,
    response: MessageResponse,
    errors: ['UNAUTHORIZED', 'CONFLICT'],
  }),
} as const;
