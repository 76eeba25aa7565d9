import { inject, injectable } from 'tsyringe';
import type { ServerStatus } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import type { EventBus } from '../events/bus.js';
import { isoNow, type Clock } from '../jobs/clock.js';

/** The record's process fields when there is no process. */
export const NO_PROCESS = { pid: null, started_at: null, process_start_time: null } as const;

type StatusPatch = Partial<Pick<ServerRow, 'status' | 'pid' | 'started_at' | 'process_start_time' | 'restart_count' | 'started_config_version' | 'current_mission'>>;

/**
 * The server's state as the API shows it (its status, and its game process on the record), written and
 * announced together: every change is a `server_status` event.
 */
@injectable()
export class ServerStates {
  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async set(serverId: number, patch: StatusPatch): Promise<void> {
    await this.repos.servers.update(serverId, { ...patch, updated_at: isoNow(this.clock) });
    await this.publish(serverId);
  }

  /** Changes the state only if it is still as expected (a status among `from`, the process `pid`); true when it did. */
  async transition(serverId: number, expect: { from?: readonly ServerStatus[]; pid?: number }, patch: StatusPatch, announce = true): Promise<boolean> {
    const changed = await this.repos.servers.transition(serverId, expect, { ...patch, updated_at: isoNow(this.clock) }).catch(() => false);
    if (changed && announce) await this.publish(serverId);
    return changed;
  }

  async publish(serverId: number): Promise<void> {
    const row = await this.repos.servers.find(serverId);
    if (row) this.events.publish({ type: 'server_status', server_id: serverId, data: { status: row.status, pid: row.pid, started_at: row.started_at } });
  }
}
