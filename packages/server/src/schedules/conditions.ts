import { inject, injectable } from 'tsyringe';
import type { ScheduleConditions } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Clock } from '../jobs/clock.js';
import type { ScheduleRow } from '../db/repositories/schedules.js';
import { ServerService } from '../servers/service.js';
import { PlayerService } from '../players/service.js';

/** How often held conditions are looked at again. */
const RECHECK_MS = 5_000;

/** A scheduled run's conditions (a run started by a person has none): met now, and for as long as asked. */
@injectable()
export class RunConditions {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(PlayerService) private readonly players: PlayerService,
  ) {}

  /** Null when the conditions hold (through `hold_s`); otherwise why the run does not happen. */
  async unmet(schedule: ScheduleRow, signal: AbortSignal): Promise<string | null> {
    const conditions = schedule.conditions;
    const until = this.clock.now() + (conditions.hold_s ?? 0) * 1000;
    for (;;) {
      const why = await this.unmetNow(schedule.server_id, conditions);
      if (why) return conditions.hold_s ? `${why} (the conditions must hold ${conditions.hold_s} s)` : why;
      const left = until - this.clock.now();
      if (left <= 0) return null;
      await this.clock.sleep(Math.min(RECHECK_MS, left), signal, `schedule.conditions:${schedule.id}`);
    }
  }

  private async unmetNow(serverId: number, c: ScheduleConditions): Promise<string | null> {
    if (c.when_running) {
      const { status } = await this.servers.row(serverId);
      if (status !== 'running') return `the server is ${status}, and the schedule runs only while it runs`;
    }
    if (c.players_max === undefined && c.players_min === undefined) return null;
    const { player_count } = await this.players.list(serverId);
    if (c.players_max !== undefined && player_count > c.players_max) return `${player_count} players are in, more than ${c.players_max}`;
    if (c.players_min !== undefined && player_count < c.players_min) return `${player_count} players are in, fewer than ${c.players_min}`;
    return null;
  }
}
