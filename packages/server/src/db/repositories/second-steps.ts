import type { Knex } from 'knex';
import { isUniqueViolation } from '../errors.js';

export interface AccountEventRow {
  id: number;
  user_id: number | null;
  username: string;
  event_type: string;
  detail: Record<string, unknown>;
  timestamp: string;
}

/**
 * An account's wrong second steps in a row and its pause (columns of users), the first steps' tokens
 * used already, and the accounts' audit trail. Counted in the database: every instance meets one count.
 */
export class SecondStepRepository {
  constructor(private readonly knex: Knex) {}

  /** When the account's second steps may go on again, or null while they are not paused. */
  async pausedUntil(userId: number): Promise<string | null> {
    const row = await this.knex('users').where({ id: userId }).first('second_step_paused_until');
    return (row as { second_step_paused_until: string | null } | undefined)?.second_step_paused_until ?? null;
  }

  /** Counts one more wrong second step in `trx`; the count now. */
  async countFailure(userId: number, trx: Knex.Transaction): Promise<number> {
    // An increment in the database, not read-then-write: two instances' failures both count.
    await trx('users')
      .where({ id: userId })
      .update({ second_step_failures: trx.raw('second_step_failures + 1') });
    const row = await trx('users').where({ id: userId }).first('second_step_failures');
    return Number((row as { second_step_failures: number | string } | undefined)?.second_step_failures ?? 0);
  }

  async pause(userId: number, until: string, trx: Knex.Transaction): Promise<void> {
    await trx('users').where({ id: userId }).update({ second_step_paused_until: until });
  }

  /**
   * Takes a first step's token as used and ends the account's count of failures, in `trx`: false when it
   * was used already (by a request racing this one on any instance). Tokens expired before `forgetBefore` go.
   */
  async useToken(userId: number, digest: string, expiresAt: string, forgetBefore: string, trx: Knex.Transaction): Promise<boolean> {
    await trx('used_mfa_tokens').where('expires_at', '<', forgetBefore).delete();
    try {
      await trx('used_mfa_tokens').insert({ token_sha256: digest, user_id: userId, expires_at: expiresAt });
    } catch (err) {
      // A duplicate fails its statement alone on both databases: the transaction goes on.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
    await trx('users').where({ id: userId }).update({ second_step_failures: 0, second_step_paused_until: null });
    return true;
  }

  async tokenUsed(digest: string): Promise<boolean> {
    return Boolean(await this.knex('used_mfa_tokens').where({ token_sha256: digest }).first('token_sha256'));
  }

  async recordEvent(row: Omit<AccountEventRow, 'id'>, trx: Knex.Transaction): Promise<void> {
    await trx('account_events').insert({ ...row, detail: JSON.stringify(row.detail) });
  }

  /** The account events, newest first. */
  async events(userId: number): Promise<AccountEventRow[]> {
    const rows = await this.knex('account_events').where({ user_id: userId }).orderBy('id', 'desc');
    return rows.map((row: AccountEventRow & { detail: string }) => ({
      ...row,
      detail: JSON.parse(row.detail) as AccountEventRow['detail'],
    }));
  }
}
