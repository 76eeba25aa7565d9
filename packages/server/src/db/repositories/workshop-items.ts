import type { Knex } from 'knex';
import type { WorkshopItem } from '@garrison/core';

type WorkshopStatus = WorkshopItem['status'];

export interface WorkshopItemRow {
  id: number;
  server_id: number;
  workshop_id: string;
  name: string;
  folder: string | null;
  status: WorkshopStatus;
  /** Steam's, Unix seconds, as last asked. */
  time_updated: number | null;
  installed_at: string | null;
  /** Steam's time_updated of the version installed. */
  installed_time_updated: number | null;
  size_bytes: number | null;
  error_code: string | null;
  error_message: string | null;
  keys: string[];
  /** Keys an install is writing or wrote before recording them in `keys` (a crash in between leaves them here). */
  pending_keys: string[];
  node_id: string;
  created_at: string;
  updated_at: string;
}

export type WorkshopItemChange = Partial<Omit<WorkshopItemRow, 'id' | 'server_id' | 'workshop_id' | 'node_id' | 'created_at'>> & {
  updated_at: string;
};

type Stored = Record<string, unknown>;
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** The stored row: keys as JSON text, the big integers as numbers (MariaDB may give them as strings). */
const toItem = (row: Stored): WorkshopItemRow => ({
  ...(row as unknown as WorkshopItemRow),
  time_updated: numberOrNull(row.time_updated),
  installed_time_updated: numberOrNull(row.installed_time_updated),
  size_bytes: numberOrNull(row.size_bytes),
  keys: JSON.parse(row.keys as string),
  pending_keys: row.pending_keys ? JSON.parse(row.pending_keys as string) : [],
});

const stored = (change: Partial<WorkshopItemRow>) => ({
  ...change,
  ...(change.keys ? { keys: JSON.stringify(change.keys) } : {}),
  ...(change.pending_keys ? { pending_keys: JSON.stringify(change.pending_keys) } : {}),
});

/** The workshop_items table. */
export class WorkshopItemRepository {
  constructor(private readonly knex: Knex) {}

  /** A server's items, by Workshop id. */
  async ofServer(serverId: number, trx?: Knex.Transaction): Promise<WorkshopItemRow[]> {
    const rows = await (trx ?? this.knex)('workshop_items').where({ server_id: serverId }).orderBy('workshop_id');
    return rows.map(toItem);
  }

  /** The items of these servers (an installation's servers), by server then Workshop id. */
  async ofServers(serverIds: readonly number[], trx?: Knex.Transaction): Promise<WorkshopItemRow[]> {
    if (!serverIds.length) return [];
    const rows = await (trx ?? this.knex)('workshop_items').whereIn('server_id', serverIds).orderBy(['server_id', 'workshop_id']);
    return rows.map(toItem);
  }

  /** Which of these servers have an outdated item. */
  async withOutdated(serverIds: readonly number[]): Promise<Set<number>> {
    if (!serverIds.length) return new Set();
    const rows = await this.knex('workshop_items').whereIn('server_id', serverIds).where({ status: 'outdated' }).distinct('server_id');
    return new Set(rows.map((r: { server_id: number }) => Number(r.server_id)));
  }

  async find(serverId: number, workshopId: string, trx?: Knex.Transaction): Promise<WorkshopItemRow | undefined> {
    const row = await (trx ?? this.knex)('workshop_items').where({ server_id: serverId, workshop_id: workshopId }).first();
    return row ? toItem(row) : undefined;
  }

  /** A node's items with a version installed (installed or outdated): what its update check asks Steam about. */
  async installedOfNode(nodeId: string, serverId?: number): Promise<WorkshopItemRow[]> {
    const query = this.knex('workshop_items').where({ node_id: nodeId }).whereIn('status', ['installed', 'outdated']);
    if (serverId !== undefined) query.andWhere({ server_id: serverId });
    return (await query.orderBy(['server_id', 'workshop_id'])).map(toItem);
  }

  /** A new row, or the one of that server and item brought to `row`'s values (queued again, say). */
  async put(row: Omit<WorkshopItemRow, 'id'>, trx?: Knex.Transaction): Promise<void> {
    const db = trx ?? this.knex;
    const { server_id, workshop_id, created_at: _created, node_id: _node, ...change } = row;
    const done = await db('workshop_items').where({ server_id, workshop_id }).update(stored(change));
    if (!done) await db('workshop_items').insert(stored(row));
  }

  async update(serverId: number, workshopId: string, change: WorkshopItemChange, trx?: Knex.Transaction): Promise<boolean> {
    const n = await (trx ?? this.knex)('workshop_items').where({ server_id: serverId, workshop_id: workshopId }).update(stored(change));
    return n > 0;
  }

  /** Steam's newest time_updated; an installed item that is older becomes outdated (never the other way). Answers whether it did. */
  async noteSteamTime(row: Pick<WorkshopItemRow, 'id'>, timeUpdated: number, now: string, trx?: Knex.Transaction): Promise<boolean> {
    const db = trx ?? this.knex;
    await db('workshop_items').where({ id: row.id }).update({ time_updated: timeUpdated, updated_at: now });
    const n = await db('workshop_items')
      .where({ id: row.id, status: 'installed' })
      .andWhere('installed_time_updated', '<', timeUpdated)
      .update({ status: 'outdated', updated_at: now });
    return n > 0;
  }

  async remove(serverId: number, workshopId: string, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('workshop_items').where({ server_id: serverId, workshop_id: workshopId }).delete()) > 0;
  }
}
