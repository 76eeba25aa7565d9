import type { Caller, Result } from './calls.js';

export const auth = (c: Caller) => ({
  logout: (): Result<'logout'> => c.call('logout'),
  me: (): Result<'me'> => c.call('me'),
  changePassword: (current_password: string, new_password: string): Result<'changePassword'> =>
    c.call('changePassword', { body: { current_password, new_password } }),
  /** One's open sessions (`current` marks this client's). */
  sessions: (): Result<'listSessions'> => c.call('listSessions'),
  endSession: (session_id: string): Result<'endSession'> => c.call('endSession', { params: { session_id } }),
  /** Sign out everywhere, this client too. */
  endAllSessions: (): Result<'endAllSessions'> => c.call('endAllSessions'),
  /** Two-factor sign-in (TOTP): `setup()` gives the secret and its otpauth URL, `enable(code)` the recovery codes. */
  twoFactor: {
    status: (): Result<'getTwoFactor'> => c.call('getTwoFactor'),
    setup: (): Result<'setupTwoFactor'> => c.call('setupTwoFactor'),
    enable: (code: string): Result<'enableTwoFactor'> => c.call('enableTwoFactor', { body: { code } }),
    disable: (password: string, code: string): Result<'disableTwoFactor'> => c.call('disableTwoFactor', { body: { password, code } }),
  },
});
