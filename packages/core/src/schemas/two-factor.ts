import { Type, type Static } from '../typebox.js';

const Code = Type.String({ minLength: 6, maxLength: 32, description: 'A 6-digit code from the authenticator app, or a recovery code.' });

export const TwoFactorStatus = Type.Object(
  {
    enabled: Type.Boolean(),
    required: Type.Boolean({ description: 'The service requires it of this user (admins, with GARRISON_REQUIRE_2FA_FOR_ADMINS=1).' }),
    recovery_codes_left: Type.Integer(),
  },
  { $id: 'TwoFactorStatus' },
);

export const TwoFactorSetup = Type.Object(
  {
    otpauth_url: Type.String({ description: 'For the QR code an authenticator app scans (SHA-1, 6 digits, 30 s).' }),
    secret: Type.String({ description: 'The same secret in base32, to type in by hand.' }),
  },
  { $id: 'TwoFactorSetup' },
);

export const TwoFactorCodeRequest = Type.Object({ code: Code }, { additionalProperties: false });
export const DisableTwoFactorRequest = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1024 }), code: Code },
  { additionalProperties: false },
);

export const RecoveryCodes = Type.Object(
  { recovery_codes: Type.Array(Type.String(), { description: "Ten codes, shown once, each usable once instead of the app's code." }) },
  { $id: 'RecoveryCodes' },
);

export const MfaChallenge = Type.Object(
  {
    mfa_required: Type.Literal(true),
    mfa_token: Type.String({ description: 'Good for 5 minutes, only for POST /auth/login/2fa; not a bearer token.' }),
  },
  { $id: 'MfaChallenge', description: 'The password was right; the user has two-factor sign-in: send a code with this token.' },
);
export type MfaChallenge = Static<typeof MfaChallenge>;

export const LoginSecondStepRequest = Type.Object(
  { mfa_token: Type.String({ minLength: 1, maxLength: 2000 }), code: Code },
  { additionalProperties: false },
);
