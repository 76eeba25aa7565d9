import { createHash, randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { Secret, TOTP } from 'otpauth';
import { ApiError, SYSTEM_ACTOR, userActor, type Actor } from '@garrison/core';
import { AuditService } from '../audit/service.js';
import { TOKENS } from '../tokens.js';
import type { AuthSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { TwoFactorRow } from '../db/repositories/two-factor.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { loadOrCreateSecret } from './tokens.js';
import { Sealer } from './sealing.js';
import type { Principal } from './principal.js';

/** What checking a user's second factor needs of their record. */
/** The purpose two-factor secrets are sealed for (a key of its own; `rotate-jwt-secret` seals them anew). */
export const TOTP_SEAL_PURPOSE = 'totp-secret';

type SecondFactorOf = Pick<TwoFactorRow, 'id' | 'username' | 'totp_secret'>;

const PERIOD = 30;
const RECOVERY_CODES = 10;
const totpOf = (secret: Secret, label: string) =>
  new TOTP({ issuer: 'Garrison', label, secret, algorithm: 'SHA1', digits: 6, period: PERIOD });
const digestOf = (code: string) => createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');

/** `xxxxx-xxxxx` in a base32 alphabet without look-alikes. */
function recoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/**
 * Two-factor sign-in with TOTP (what authenticator apps expect: SHA-1, 6 digits, 30 s, a step either side
 * accepted). A code is good once: the last step taken is kept and an earlier or equal one refused. The
 * secret is stored encrypted (AES-256-GCM, the key derived with HKDF from the service's signing secret).
 */
@injectable()
export class TwoFactorService {
  private readonly sealer: Sealer;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: AuthSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AuditService) private readonly audit: AuditService,
  ) {
    this.sealer = new Sealer(loadOrCreateSecret(settings), TOTP_SEAL_PURPOSE);
  }

  /** The caller as they may act: one who must enrol before doing anything else is marked so. */
  withEnrolment(principal: Principal, has2fa: boolean): Principal {
    return this.settings.require2faForAdmins && principal.role === 'admin' && !has2fa ? { ...principal, must_enrol: true } : principal;
  }

  async status(userId: number) {
    const row = await this.row(userId);
    return {
      enabled: row.totp_secret !== null,
      required: this.settings.require2faForAdmins && row.role === 'admin',
      recovery_codes_left: await this.repos.twoFactor.recoveryCodesLeft(userId),
    };
  }

  async setup(userId: number): Promise<{ otpauth_url: string; secret: string }> {
    const row = await this.row(userId);
    if (row.totp_secret) throw new ApiError('CONFLICT', 'two-factor sign-in is already on: turn it off first to enrol again');
    const secret = new Secret({ size: 20 });
    await this.repos.twoFactor.setPending(userId, this.sealer.seal(secret.base32));
    return { otpauth_url: totpOf(secret, row.username).toString(), secret: secret.base32 };
  }

  async enable(userId: number, code: string): Promise<{ recovery_codes: string[] }> {
    const row = await this.row(userId);
    if (row.totp_secret) throw new ApiError('CONFLICT', 'two-factor sign-in is already on');
    if (!row.totp_pending) throw new ApiError('CONFLICT', 'start with POST /auth/2fa/setup');
    const step = this.stepOf(this.sealer.open(row.totp_pending), row.username, code.trim());
    if (step === null)
      throw new ApiError('VALIDATION_ERROR', "field 'code': it does not match: check the app's clock and try the next code");
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await this.audit.inTransaction(async (trx) => {
      await this.repos.twoFactor.enable(userId, row.totp_pending!, step, codes.map(digestOf), trx);
      await this.audit.record(trx, {
        serverId: null,
        type: 'two_factor_enabled',
        actor: userActor(row),
        target: { kind: 'user', id: row.id, name: row.username },
      });
    });
    return { recovery_codes: codes };
  }

  async disable(user: SecondFactorOf, code: string, actor: Actor): Promise<void> {
    if (!user.totp_secret) throw new ApiError('CONFLICT', 'two-factor sign-in is not on');
    if (!(await this.verify(user, code))) throw new ApiError('UNAUTHORIZED', 'the code is wrong, or was used already');
    await this.turnOff(user, 'two_factor_disabled', actor);
  }

  /** `garrison admin reset-2fa` (`actor`: the CLI): for a locked-out user. */
  async reset(username: string, actor: Actor = SYSTEM_ACTOR): Promise<void> {
    const row = await this.repos.twoFactor.byUsername(username);
    if (!row) throw new ApiError('NOT_FOUND', `no user ${JSON.stringify(username)}`);
    await this.turnOff(row, 'two_factor_reset', actor);
  }

  private async turnOff(
    user: { id: number; username: string },
    type: 'two_factor_disabled' | 'two_factor_reset',
    actor: Actor,
  ): Promise<void> {
    await this.audit.inTransaction(async (trx) => {
      await this.repos.twoFactor.disable(user.id, trx);
      await this.audit.record(trx, { serverId: null, type, actor, target: { kind: 'user', id: user.id, name: user.username } });
    });
  }

  /** A sign-in's second factor: an app code not used before, or an unused recovery code (then used up). */
  async verify(row: SecondFactorOf, code: string): Promise<boolean> {
    if (!row.totp_secret) return false;
    if (/^\d{6}$/.test(code.trim())) {
      const step = this.stepOf(this.sealer.open(row.totp_secret), row.username, code.trim());
      return step !== null && (await this.repos.twoFactor.takeStep(row.id, step));
    }
    return this.repos.twoFactor.useRecoveryCode(row.id, digestOf(code), isoNow(this.clock));
  }

  row(userId: number): Promise<TwoFactorRow> {
    return this.repos.twoFactor.of(userId).then((row) => {
      if (!row) throw new ApiError('UNAUTHORIZED', 'no such user');
      return row;
    });
  }

  /** The time step the code belongs to (now, or one either side), or null. */
  private stepOf(base32: string, label: string, code: string): number | null {
    // Six digits only: otpauth compares by bytes and throws on six characters of other lengths (é…).
    if (!/^\d{6}$/.test(code)) return null;
    const now = this.clock.now();
    const delta = totpOf(Secret.fromBase32(base32), label).validate({ token: code, timestamp: now, window: 1 });
    return delta === null ? null : TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
  }
}
