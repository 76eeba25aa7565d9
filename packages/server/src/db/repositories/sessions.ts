import type { Knex } from 'knex';
import type { Fence } from './leases.js';

export interface SessionRow {
  id: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  address: string | null;
  user_agent: string | null;
  expires_at: string;
  ended_at: string | null;
}

/** The sessions table: a sign-in each, ended by its user (one, or all) or by a password change. */
export class SessionRepository {
  constructor(private readonly knex: Knex) {}

  async create(row: Omit<SessionRow, 'ended_at'>): Promise<void> {
    await this.knex('sessions').insert({ ...row, ended_at: null });
  }

  live(id: string): Promise<SessionRow | undefined> {
    return this.knex<SessionRow>('sessions').where({ id }).whereNull('ended_at').first();
  }

  /** A user's sessions still open (not ended, not expired), newest first. */
  open(userId: number, now: string): Promise<SessionRow[]> {
    return this.knex<SessionRow>('sessions')
      .where({ user_id: userId })
      .whereNull('ended_at')
      .andWhere('expires_at', '>', now)
      .orderBy('created_at', 'desc');
  }

  /** Ends one of the user's sessions; false when there is no such open session of theirs. */
  async end(userId: number, id: string, at: string, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('sessions').where({ id, user_id: userId }).whereNull('ended_at').update({ ended_at: at })) > 0;
  }

  /** Ends every open session of the user but `keep`. */
  async endAll(userId: number, at: string, keep: string | null = null, trx?: Knex.Transaction): Promise<number> {
    const query = (trx ?? this.knex)('sessions').where({ user_id: userId }).whereNull('ended_at');
    if (keep) query.whereNot({ id: keep });
    return query.update({ ended_at: at });
  }

  /** Ends every open session of every user; how many there were. */
  async endEveryone(at: string): Promise<number> {
    return this.knex('sessions').whereNull('ended_at').update({ ended_at: at });
  }

  async seen(id: string, at: string, address: string | null): Promise<void> {
    await this.knex('sessions')
      .where({ id })
      .update({ last_seen_at: at, ...(address ? { address: address.slice(0, 64) } : {}) });
  }

  /** Sessions that ended or expired before `cutoff` (run by the history retention job). */
  async pruneBefore(cutoff: string, fence: Fence = (q) => q): Promise<number> {
    return fence(
      this.knex('sessions').where((q) => {
        q.where('expires_at', '<', cutoff).orWhere('ended_at', '<', cutoff);
      }),
    ).delete();
  }
}
