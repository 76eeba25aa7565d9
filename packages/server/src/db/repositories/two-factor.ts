import type { Knex } from 'knex';

export interface TwoFactorRow {
  id: number;
  username: string;
  role: 'admin' | 'viewer';
  totp_secret: string | null;
  totp_pending: string | null;
  totp_last_step: number | string | null;
}

const COLUMNS = ['id', 'username', 'role', 'totp_secret', 'totp_pending', 'totp_last_step'] as const;

/** The users' two-factor columns and their recovery codes. */
export class TwoFactorRepository {
  constructor(private readonly knex: Knex) {}

  of(userId: number): Promise<TwoFactorRow | undefined> {
    return this.knex('users').select(COLUMNS).where({ id: userId }).first();
  }

  byUsername(username: string): Promise<TwoFactorRow | undefined> {
    return this.knex('users').select(COLUMNS).where({ username }).first();
  }

  /** Every user's sealed two-factor secrets, enrolled or pending. */
  sealed(): Promise<Pick<TwoFactorRow, 'id' | 'totp_secret' | 'totp_pending'>[]> {
    return this.knex('users').select('id', 'totp_secret', 'totp_pending').whereNotNull('totp_secret').orWhereNotNull('totp_pending');
  }

  /** Replaces sealed secrets (a new signing secret seals them anew), all or none. */
  async reseal(rows: Pick<TwoFactorRow, 'id' | 'totp_secret' | 'totp_pending'>[], trx: Knex = this.knex): Promise<void> {
    for (const row of rows)
      await trx('users').where({ id: row.id }).update({ totp_secret: row.totp_secret, totp_pending: row.totp_pending });
  }

  async setPending(userId: number, encrypted: string): Promise<void> {
    await this.knex('users').where({ id: userId }).update({ totp_pending: encrypted });
  }

  /** Turns it on with the pending secret and the codes, in one transaction. */
  /** `outer`: the transaction of the whole change (with its audit entry). */
  async enable(userId: number, secret: string, step: number, codeDigests: string[], outer?: Knex.Transaction): Promise<void> {
    await (outer ?? this.knex).transaction(async (trx) => {
      await trx('users').where({ id: userId }).update({ totp_secret: secret, totp_pending: null, totp_last_step: step });
      await trx('recovery_codes').where({ user_id: userId }).delete();
      await trx('recovery_codes').insert(codeDigests.map((code_sha256) => ({ user_id: userId, code_sha256, used_at: null })));
    });
  }

  async disable(userId: number, outer?: Knex.Transaction): Promise<void> {
    await (outer ?? this.knex).transaction(async (trx) => {
      // A pause of second steps ends with them: a user enrolling again starts from no wrong codes.
      await trx('users')
        .where({ id: userId })
        .update({ totp_secret: null, totp_pending: null, totp_last_step: null, second_step_failures: 0, second_step_paused_until: null });
      await trx('recovery_codes').where({ user_id: userId }).delete();
    });
  }

  /** Takes a time step as used if it is later than every one used before: false for a replayed code. */
  async takeStep(userId: number, step: number): Promise<boolean> {
    const taken = await this.knex('users')
      .where({ id: userId })
      .andWhere((q) => {
        q.whereNull('totp_last_step').orWhere('totp_last_step', '<', step);
      })
      .update({ totp_last_step: step });
    return taken > 0;
  }

  /** Uses a recovery code once: false when there is no such unused code. */
  async useRecoveryCode(userId: number, digest: string, at: string): Promise<boolean> {
    return (
      (await this.knex('recovery_codes').where({ user_id: userId, code_sha256: digest }).whereNull('used_at').update({ used_at: at })) > 0
    );
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.knex('recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' }).first();
    return Number((row as { n: number | string } | undefined)?.n ?? 0);
  }
}
