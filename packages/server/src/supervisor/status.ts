import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import type { ServerStatus } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { ProcessKey, Repositories, ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { ProcessService } from '../processes/service.js';

export const serverKey = (serverId: number): ProcessKey => ({ server_id: serverId, role: 'server', idx: 0 });

type ServerFields = Partial<Pick<ServerRow, 'status' | 'restart_count' | 'started_config_version' | 'current_mission'>>;
/** A change of the server's state, and of its game's process row with it (`pid: null`: the process is gone). */
export type StateChange = ServerFields & { game?: { status?: ServerStatus; pid?: null } };

/** The server, and its game process, come to rest in `status`: the process is gone. */
export const ended = (status: ServerStatus): StateChange => ({ status, game: { status, pid: null } });

/**
 * A database that fails for a moment is tried again after 0.25 s, 0.5 s, … 8 s (16 s in all); then the
 * failure is thrown. Not while the service stops: the next start finds the state as it was left.
 */
const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];

/**
 * The server's state as the API shows it (its status; its game process is the processes table's row),
 * written in one transaction per change and announced: every change is a `server_status` event.
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
  ) {}

  async set(serverId: number, change: StateChange): Promise<void> {
    await this.transition(serverId, {}, change);
  }

  /**
   * Changes the state only if it is still as expected (a status among `from`, the game process `pid`);
   * true when it did, false when it was not (another change came first). A failing database is not a lost
   * race: it is tried again, and its failure thrown when it lasts.
   */
  async transition(
    serverId: number,
    expect: { from?: readonly ServerStatus[]; pid?: number },
    change: StateChange,
    announce = true,
  ): Promise<boolean> {
    const { game, ...fields } = change;
    if (game?.pid === null) this.processes.forget(serverKey(serverId));
    const write = () => {
      const now = isoNow(this.clock);
      return this.repos.servers.transition(serverId, expect, { ...fields, updated_at: now }, game && { ...game, updated_at: now });
    };
    const changed = await this.retried(serverId, write);
    if (changed && announce) await this.publish(serverId);
    return changed;
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

  async publish(serverId: number): Promise<void> {
    const row = await this.repos.servers.find(serverId);
    if (row)
      this.events.publish({
        type: 'server_status',
        server_id: serverId,
        data: { status: row.status, pid: row.pid, started_at: row.started_at },
      });
  }
}
