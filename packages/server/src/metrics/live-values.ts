import type { ServerDetail, Static } from '@garrison/core';
import { injectable } from 'tsyringe';

/** The fields of the server record that come from the running game rather than the database. */
export type LiveValues = Pick<Static<typeof ServerDetail>, 'cpu_percent' | 'ram_mb' | 'player_count'>;

/**
 * The live figures of each running game, as the server record shows them: CPU and memory from the
 * metrics sampler, the player count from the player poll. Nothing for a server without a process.
 */
@injectable()
export class LiveFigures {
  private readonly values = new Map<number, LiveValues>();
  /** Changes with every update, for what is built from these figures and kept. */
  version = 0;

  get(serverId: number): LiveValues {
    return this.values.get(serverId) ?? { cpu_percent: null, ram_mb: null, player_count: null };
  }

  update(serverId: number, patch: Partial<LiveValues>): void {
    this.values.set(serverId, { ...this.get(serverId), ...patch });
    this.version++;
  }

  clear(serverId: number): void {
    if (this.values.delete(serverId)) this.version++;
  }
}
