import type { Knex } from 'knex';
import { DatabaseClock } from '../database-clock.js';

export interface NodeRow {
  id: string;
  url: string;
  version: string;
  game_types: string[];
  draining: boolean;
  incarnation: string;
  events_connected: boolean | null;
  last_seen: string;
  /** Since its last heartbeat, by the database's clock. */
  age_ms: number;
}

export type NodeRegistration = Pick<NodeRow, 'id' | 'url' | 'version' | 'game_types' | 'incarnation' | 'events_connected'>;

interface StoredNode extends Omit<NodeRow, 'game_types' | 'draining' | 'events_connected' | 'age_ms'> {
  game_types: string;
  draining: number | boolean;
  events_connected: number | boolean | null;
  age_ms: number | string;
}

/** The nodes table: one row per instance id, its heartbeat by the database's clock. */
export class NodeRepository {
  private readonly clock: DatabaseClock;

  constructor(private readonly knex: Knex) {
    this.clock = new DatabaseClock(knex);
  }

  /** Inserts or takes over the row of this id (its draining flag stays as an admin left it). */
  async register(node: NodeRegistration): Promise<void> {
    const now = this.clock.now();
    await this.knex('nodes')
      .insert({ ...node, game_types: JSON.stringify(node.game_types), draining: false, started_at: now, last_seen: now })
      .onConflict('id')
      .merge(['url', 'version', 'game_types', 'incarnation', 'events_connected', 'started_at', 'last_seen']);
  }

  /** False when the row now belongs to another process (another instance started with the same id). */
  async heartbeat(id: string, incarnation: string, eventsConnected: boolean | null): Promise<boolean> {
    return (
      (await this.knex('nodes').where({ id, incarnation }).update({ last_seen: this.clock.now(), events_connected: eventsConnected })) > 0
    );
  }

  async list(): Promise<NodeRow[]> {
    const rows: StoredNode[] = await this.knex('nodes')
      .select('*', this.knex.raw('? as age_ms', [this.clock.ageMs('last_seen')]))
      .orderBy('id');
    return rows.map(toRow);
  }

  async find(id: string): Promise<NodeRow | undefined> {
    const row: StoredNode | undefined = await this.knex('nodes')
      .select('*', this.knex.raw('? as age_ms', [this.clock.ageMs('last_seen')]))
      .where({ id })
      .first();
    return row && toRow(row);
  }

  /** The database's clock, in milliseconds since the epoch. */
  async databaseTime(): Promise<number> {
    const row = (await this.knex.select(this.knex.raw('? as now', [this.clock.epochMs()])).first()) as { now: number | string };
    return Number(row.now);
  }

  async setUrl(id: string, url: string): Promise<void> {
    await this.knex('nodes').where({ id }).update({ url });
  }

  async setDraining(id: string, draining: boolean, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('nodes').where({ id }).update({ draining })) > 0;
  }
}

function toRow(row: StoredNode): NodeRow {
  return {
    ...row,
    game_types: JSON.parse(row.game_types) as string[],
    draining: Boolean(row.draining),
    events_connected: row.events_connected === null ? null : Boolean(row.events_connected),
    age_ms: Number(row.age_ms),
  };
}
