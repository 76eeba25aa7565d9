import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import type { DatabaseAccess } from '../db/access.js';
import { isoAt, isoNow, type Clock } from '../jobs/clock.js';
import { WebhookOutbox } from '../webhooks/outbox.js';

/** Wrong codes in a row before an account's second steps pause. */
const FAILURES_BEFORE_PAUSE = 10;
const FIRST_PAUSE_MS = 60_000;
const LONGEST_PAUSE_MS = 60 * 60_000;

/** The pause after `failures` wrong codes in a row: none below the threshold, then 1 min doubling to 1 h. */
function pauseAfter(failures: number): number {
  if (failures < FAILURES_BEFORE_PAUSE) return 0;
  return Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(failures - FAILURES_BEFORE_PAUSE, 20));
}

const digestOf = (mfaToken: string) => createHash('sha256').update(mfaToken).digest('hex');

/**
 * What bounds the second step of a sign-in beyond the limit per address: a guesser with the password and
 * many addresses, fetching a fresh first-step token whenever one runs out, meets the account's own count
 * of wrong codes (a pause growing with each, the admins told), and each first-step token signs in once.
 */
@injectable()
export class SecondStepGuard {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.DatabaseAccess) private readonly db: DatabaseAccess,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(WebhookOutbox) private readonly outbox: WebhookOutbox,
  ) {}

  /** Refuses a used first-step token (401), then a paused account (429 with when to retry). */
  async admit(userId: number, mfaToken: string): Promise<void> {
    if (await this.repos.secondSteps.tokenUsed(digestOf(mfaToken)))
      throw new ApiError('UNAUTHORIZED', 'this sign-in was completed already: sign in again');
    const until = await this.repos.secondSteps.pausedUntil(userId);
    const left = until ? Date.parse(until) - this.clock.now() : 0;
    if (left > 0) {
      const retryAfter = Math.ceil(left / 1000);
      throw new ApiError(
        'RATE_LIMITED',
        `too many wrong codes in a row for this account: its sign-ins pause until ${until}; retry in ${retryAfter} s`,
        {
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
    }
  }

  /** A wrong code: counted; from the tenth in a row the account pauses, and the admins are told (audit and webhook, one transaction). */
  async failed(user: { id: number; username: string }): Promise<void> {
    let wake = () => undefined as void;
    const paused = await this.db.inTransaction(async (trx) => {
      const failures = await this.repos.secondSteps.countFailure(user.id, trx);
      const pause = pauseAfter(failures);
      if (!pause) return null;
      const until = isoAt(this.clock.now() + pause);
      await this.repos.secondSteps.pause(user.id, until, trx);
      const detail = { failures, paused_until: until };
      await this.repos.secondSteps.recordEvent(
        { user_id: user.id, username: user.username, event_type: 'second_step_paused', detail, timestamp: isoNow(this.clock) },
        trx,
      );
      wake = await this.outbox.enqueueIn(
        trx,
        [{ type: 'auth.second_step_paused', data: { user_id: user.id, username: user.username, ...detail } }],
        null,
      );
      return detail;
    });
    wake();
    if (paused) this.logger.warn({ user: user.username, ...paused }, 'wrong two-factor codes in a row: second steps of this account pause');
  }

  /** A right code: the token is used up and the count ends; false when the token was used meanwhile. */
  succeeded(userId: number, mfaToken: string, expiresAt: number): Promise<boolean> {
    // Tokens expire by the host's clock: a used one is kept an hour past that, a margin for a skewed clock.
    const forgetBefore = isoAt(this.clock.now() - 60 * 60_000);
    return this.db.inTransaction((trx) =>
      this.repos.secondSteps.useToken(userId, digestOf(mfaToken), isoAt(expiresAt * 1000), forgetBefore, trx),
    );
  }
}
