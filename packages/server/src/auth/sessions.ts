import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { ApiError, type Actor, type Session } from '@garrison/core';
import { AuditService } from '../audit/service.js';
import { TOKENS } from '../tokens.js';
import type { Repositories } from '../db/repositories/index.js';
import { isoAgo, isoNow, type Clock } from '../jobs/clock.js';
import type { Fence } from '../db/repositories/leases.js';
import { actorOf, type Principal } from './principal.js';

/** A session's last use is written at most this often (not on every request). */
const SEEN_EVERY_MS = 60_000;

export interface SignInClient {
  address: string | null;
  userAgent: string | null;
}

/**
 * Sign-in sessions: one per login, named by the token it gave (`sid`). A user lists theirs and ends one
 * or all; their own password change ends the others. The token of an ended session is refused at once.
 */
@injectable()
export class SessionService {
  private readonly ended = new Set<() => void>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** A new session for a sign-in; its id goes into the token. */
  async begin(userId: number, client: SignInClient, ttlSeconds: number): Promise<string> {
    const id = randomBytes(16).toString('base64url');
    const now = isoNow(this.clock);
    await this.repos.sessions.create({
      id,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      address: client.address?.slice(0, 64) ?? null,
      user_agent: client.userAgent?.slice(0, 255) ?? null,
      expires_at: new Date(this.clock.now() + ttlSeconds * 1000).toISOString(),
    });
    return id;
  }

  /** Whether the token's session is still open; its use noted now and then. */
  async check(sessionId: string, userId: number, address: string | null): Promise<boolean> {
    const row = await this.repos.sessions.live(sessionId);
    if (!row || row.user_id !== userId) return false;
    if (this.clock.now() - Date.parse(row.last_seen_at) >= SEEN_EVERY_MS)
      await this.repos.sessions.seen(sessionId, isoNow(this.clock), address);
    return true;
  }

  async list(caller: Principal): Promise<Session[]> {
    const rows = await this.repos.sessions.open(caller.id, isoNow(this.clock));
    return rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      last_seen_at: r.last_seen_at,
      address: r.address,
      user_agent: r.user_agent,
      expires_at: r.expires_at,
      current: r.id === caller.session_id,
    }));
  }

  async end(caller: Principal, id: string): Promise<void> {
    await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.sessions.end(caller.id, id, isoNow(this.clock), trx)))
        throw new ApiError('NOT_FOUND', `no open session ${id}`);
      await this.audit.record(trx, {
        serverId: null,
        type: 'session_ended',
        actor: actorOf(caller),
        target: { kind: 'session', id, name: caller.username },
      });
    });
    this.tellEnded();
  }

  /** Every session of the user but `keep` (a password change keeps the one it was made in); `actor`: who ended them. */
  async endAll(userId: number, keep: string | null, actor: Actor): Promise<void> {
    await this.audit.inTransaction(async (trx) => {
      const ended = await this.repos.sessions.endAll(userId, isoNow(this.clock), keep, trx);
      // Nothing ended, nothing to record (a password changed with no other session open).
      if (ended)
        await this.audit.record(trx, {
          serverId: null,
          type: 'sessions_ended',
          actor,
          target: { kind: 'user', id: userId, name: null },
          detail: { ended, kept_current: keep !== null },
        });
    });
    this.tellEnded();
  }

  /** Sessions over for more than `days` leave the table (run by the history retention job). */
  prune(days: number, fence?: Fence): Promise<number> {
    return this.repos.sessions.pruneBefore(isoAgo(this.clock, days * 86_400_000), fence);
  }

  /** Hears of sessions ended here (the WebSocket hub closes theirs at once). */
  onEnded(listener: () => void): void {
    this.ended.add(listener);
  }

  private tellEnded(): void {
    for (const listener of this.ended) listener();
  }
}
