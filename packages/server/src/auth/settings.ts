import { declareSettings, integer, onOff, SettingError, text } from '../setting-specs.js';

/** Who signs in first, how tokens are signed and how long they last, and whether admins need a second step. */
export interface AuthSettings {
  adminUsername: string;
  adminPassword: string | null;
  jwtSecret: string | null;
  tokenTtlSeconds: number;
  /** Admins must have two-factor sign-in: one without it can sign in only to enrol. */
  require2faForAdmins: boolean;
}

export const authSettings = declareSettings<AuthSettings>({
  feature: 'auth',
  defaults: { adminUsername: 'admin', adminPassword: null, jwtSecret: null, tokenTtlSeconds: 86400, require2faForAdmins: false },
  specs: [
    { key: 'adminUsername', env: 'GARRISON_ADMIN_USERNAME', meaning: 'the first admin, created when there are no users', parse: text },
    {
      key: 'adminPassword',
      env: 'GARRISON_ADMIN_PASSWORD',
      shownDefault: 'generated',
      meaning:
        "the first admin's password; unset: generated, logged once listening and kept in <data dir>/initial-admin-password until changed",
      doc: {
        meaning:
          "the first admin's password; when unset, one is generated, logged once the service listens and kept in " +
          '`<data dir>/initial-admin-password` (0600) until changed; ignored, with a warning, once users exist',
      },
      parse: text,
    },
    {
      key: 'jwtSecret',
      env: 'GARRISON_JWT_SECRET',
      shownDefault: 'generated',
      meaning: 'token signing secret; unset: generated once into <data dir>/jwt-secret (0600)',
      doc: { meaning: 'when unset, generated once and kept in `<data dir>/jwt-secret` (mode 0600)' },
      parse: text,
    },
    { key: 'tokenTtlSeconds', env: 'GARRISON_TOKEN_TTL_SECONDS', meaning: 'token lifetime', parse: integer(1) },
    {
      key: 'require2faForAdmins',
      env: 'GARRISON_REQUIRE_2FA_FOR_ADMINS',
      shownDefault: '0',
      meaning: '1: admins must have two-factor sign-in; an admin without it can sign in only to enrol',
      doc: {
        meaning:
          '`1`: admins must have two-factor sign-in; an admin without it can sign in only to enrol ' +
          '(see [security](security.md#two-factor-sign-in))',
        default: '`0`',
      },
      parse: onOff,
    },
  ],
  settle({ tokenTtlSeconds }) {
    if (tokenTtlSeconds < 1) throw new SettingError('the token lifetime must be at least one second');
  },
});
