import { inject, injectable } from 'tsyringe';
import { ApiError, expectOnly, type Actor, type SteamAccount, type SteamAccountUpdate } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { SteamAccountRow } from '../../db/repositories/steam-account.js';
import { AuditService } from '../../audit/service.js';
import { isoNow, type Clock } from '../../jobs/clock.js';
import { loadOrCreateSecret, type SecretSettings } from '../../auth/tokens.js';
import { NotOpened, Sealer } from '../../auth/sealing.js';

/** The purpose the Steam account's password and Guard code are sealed for (a key of its own; `rotate-jwt-secret` seals them anew). */
export const STEAM_SEAL_PURPOSE = 'steam-account';

/** What a SteamCMD run logs in with. */
export interface SteamCredentials {
  username: string;
  password: string;
  guardCode?: string;
}

const TARGET = { kind: 'steam_account', id: null } as const;

/**
 * The one Steam account SteamCMD logs in with. Its password is kept sealed (AES-256-GCM, the key derived
 * with HKDF from the signing secret, as the two-factor secrets are) and never leaves the service but as
 * SteamCMD's argument; the answers and the audit say only whether it is set. A Steam Guard code given with
 * a PUT waits for the next login alone, which takes it.
 */
@injectable()
export class SteamAccountService {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Settings) private readonly settings: SecretSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async view(): Promise<SteamAccount> {
    const row = await this.repos.steamAccount.get();
    if (!row) throw new ApiError('NOT_FOUND', 'no Steam account is set: PUT /api/steam/account sets one');
    return viewOf(row);
  }

  async set(update: SteamAccountUpdate, actor: Actor): Promise<SteamAccount> {
    const sealer = this.sealer();
    const row: SteamAccountRow = {
      username: update.username,
      password_sealed: sealer.seal(update.password),
      guard_code_sealed: update.guard_code === undefined ? null : sealer.seal(update.guard_code),
      updated_at: isoNow(this.clock),
    };
    await this.audit.inTransaction(async (trx) => {
      await this.repos.steamAccount.put(row, trx);
      await this.audit.record(trx, {
        type: 'steam_account_set',
        actor,
        serverId: null,
        target: { ...TARGET, name: update.username },
        // Never the password nor the code: that they were given is all the trail keeps.
        detail: { username: update.username, guard_code_given: update.guard_code !== undefined },
      });
    });
    return viewOf(row);
  }

  async remove(actor: Actor): Promise<void> {
    await this.audit.inTransaction(async (trx) => {
      const row = await this.repos.steamAccount.get(trx);
      if (!row || !(await this.repos.steamAccount.remove(trx))) throw new ApiError('NOT_FOUND', 'no Steam account is set');
      await this.audit.record(trx, { type: 'steam_account_removed', actor, serverId: null, target: { ...TARGET, name: row.username } });
    });
  }

  /**
   * The credentials of the next login, null without an account. A pending Guard code is taken: cleared
   * before the run, so that a second run never sends a code Steam already used (a wrong code counts
   * against the account).
   */
  async credentials(): Promise<SteamCredentials | null> {
    const row = await this.repos.steamAccount.get();
    if (!row) return null;
    const open = (sealed: string) => {
      try {
        return this.sealer().open(sealed);
      } catch (err) {
        expectOnly(err, NotOpened); // another signing secret: the account must be given again
        throw new ApiError(
          'STEAM_LOGIN_FAILED',
          'the Steam account was sealed with another signing secret: set it again (PUT /api/steam/account)',
        );
      }
    };
    const credentials: SteamCredentials = { username: row.username, password: open(row.password_sealed) };
    if (row.guard_code_sealed !== null && (await this.repos.steamAccount.takeGuardCode(row.guard_code_sealed)))
      credentials.guardCode = open(row.guard_code_sealed);
    return credentials;
  }

  /** Made at each use: after `rotate-jwt-secret` and a restart, the new signing secret's key. */
  private sealer(): Sealer {
    return new Sealer(loadOrCreateSecret(this.settings), STEAM_SEAL_PURPOSE);
  }
}

const viewOf = (row: SteamAccountRow): SteamAccount => ({
  username: row.username,
  password_set: row.password_sealed !== '',
  guard_code_pending: row.guard_code_sealed !== null,
  updated_at: row.updated_at,
});
