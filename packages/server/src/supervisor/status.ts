import { inject, injectable } from 'tsyringe';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ServerStatus } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ProcessKey, Repositories, ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { ProcessService } from '../processes/service.js';
import { AuditService, type AuditRecord } from '../audit/service.js';

export const serverKey = (serverId: number): ProcessKey => ({ server_id: serverId, role: 'server', idx: 0 });

type ServerFields = Partial<Pick<ServerRow, 'status' | 'restart_count' | 'started_config_version' | 'current_mission'>>;
/** A change of the server's state, and of its game's process row with it (`pid: null`: the process is gone). */
export type StateChange = ServerFields & { game?: { status?: ServerStatus; pid?: null } };

/** The server, and its game process, come to rest in `status`: the process is gone. */
export const ended = (status: ServerStatus): StateChange => ({ status, game: { status, pid: null } });

/** A transition's entry in the audit trail (its server is the transition's). */
export type TransitionEntry = Omit<AuditRecord, 'serverId'>;

interface TransitionOptions {
  /** Announced as a `server_status` event once committed (the default); false when the caller announces it later. */
  announce?: boolean;
  /** Its entry in the audit trail, written in the transition's transaction: the change and its entry are both written, or neither. */
  entry?: TransitionEntry;
}

/**
 * A database that fails for a moment is tried again after 0.25 s, 0.5 s, … 8 s (16 s in all); then the
 * failure is thrown. Not while the service stops: the next start finds the state as it was left.
 */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];

/**
 * The server's state as the API shows it (its status; its game process is the processes table's row),
 * written in one transaction per change, with the change's audit entry, and announced: every change is a
 * `server_status` event, published after the commit and before its entry's `audit` event.
 */
@injectable()
export class ServerStates {
  private readonly stopping = new AbortController();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ProcessService) private readonly processes: ProcessService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** Sets the state, whatever it was; with `entry`, its audit entry in the same transaction. */
  async set(serverId: number, change: StateChange, entry?: TransitionEntry): Promise<void> {
    await this.transition(serverId, {}, change, { entry });
  }

  /**
   * Changes the state only if it is still as expected (a status among `from`, the game process `pid`);
   * true when it did, false when it was not (another change came first: then no entry either). A failing
   * database is not a lost race: it is tried again, and its failure thrown when it lasts. Each attempt is
   * a transaction of its own with the entry in it, so the entry is written once, by the attempt that commits.
   */
  async transition(
    serverId: number,
    expect: { from?: readonly ServerStatus[]; pid?: number },
    change: StateChange,
    options: TransitionOptions = {},
  ): Promise<boolean> {
    const { game, ...fields } = change;
    if (game?.pid === null) this.processes.forget(serverKey(serverId));
    const write = () =>
      this.audit.inTransaction(async (trx) => {
        const now = isoNow(this.clock);
        const gamePatch = game && { ...game, updated_at: now };
        if (!(await this.repos.servers.transition(serverId, expect, { ...fields, updated_at: now }, gamePatch, trx))) return false;
        // Hooked on the commit before the entry is: a client hears of the status, then of the entry that explains it.
        if (options.announce ?? true) await this.announceOnCommit(serverId, trx);
        if (options.entry) await this.audit.record(trx, { ...options.entry, serverId });
        return true;
      });
    return this.retried(serverId, write);
  }

  /** The state as this transaction leaves it, published once it has committed (nothing when it rolls back). */
  private async announceOnCommit(serverId: number, trx: Knex.Transaction): Promise<void> {
    const row = await this.repos.servers.find(serverId, trx);
    // Rolled back (or lost to a deadlock and run again): nothing happened to tell. The failure is the
    // transition's to retry or throw; here it is only noted.
    trx.executionPromise.then(
      () => row && this.announce(row),
      (rolledBack: unknown) => this.logger.debug({ err: rolledBack, serverId }, 'state change rolled back: nothing announced'),
    );
  }

  private async retried<T>(serverId: number, write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (err) {
        const wait = RETRY_DELAYS_MS[attempt];
        if (wait === undefined || this.stopping.signal.aborted) throw err;
        this.logger.error({ serverId, err, retryInMs: wait }, 'could not write the server state; trying again');
        const waited = await this.clock.sleep(wait, this.stopping.signal, `server state retry:${serverId}`).then(
          () => true,
          (cut: unknown) => {
            if (this.stopping.signal.aborted) return false; // the wait was cut short by the service's stop
            throw cut;
          },
        );
        if (!waited) throw err;
      }
    }
  }

  /** The service stops: a failed write is not tried again. */
  stop(): void {
    this.stopping.abort();
  }

  /** Announces the state as it is now (a start, once its process is spawned). */
  async publish(serverId: number): Promise<void> {
    const row = await this.repos.servers.find(serverId);
    if (row) this.announce(row);
  }

  private announce(row: ServerRow): void {
    this.events.publish({
      type: 'server_status',
      server_id: row.id,
      data: { status: row.status, pid: row.pid, started_at: row.started_at },
    });
  }
}
