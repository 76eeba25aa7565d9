import type { Knex } from 'knex';
import type { MetricsPoint, Static } from '@garrison/core';

export type MetricsRow = Static<typeof MetricsPoint>;

/** The metrics table: CPU, memory and players of each server over time. */
export class MetricsRepository {
  constructor(private readonly knex: Knex) {}

  async insert(rows: ({ server_id: number } & MetricsRow)[]): Promise<void> {
    if (rows.length) await this.knex('metrics').insert(rows);
  }

  async pruneBefore(cutoff: string): Promise<void> {
    await this.knex('metrics').where('timestamp', '<', cutoff).delete();
  }

  async range(serverId: number, from: string, to: string): Promise<MetricsRow[]> {
    const rows: MetricsRow[] = await this.knex('metrics')
      .where('server_id', serverId)
      .andWhere('timestamp', '>=', from)
      .andWhere('timestamp', '<=', to)
      .orderBy('timestamp')
      .select('timestamp', 'cpu_percent', 'ram_mb', 'player_count');
    return rows.map((r) => ({
      ...r,
      cpu_percent: Number(r.cpu_percent),
      ram_mb: Number(r.ram_mb),
      player_count: r.player_count === null ? null : Number(r.player_count),
    }));
  }
}
