import type { Knex } from 'knex';
import type { PlayerIdentity } from '@garrison/core';
import type { Fence } from './leases.js';
import { whereContains } from '../text-search.js';

export interface VisitRow {
  id: number;
  player_name: string;
  /** The value of the identity the game reported (the column keeps the API's name), null until it has. */
  guid: string | null;
  joined_at: string;
  left_at: string | null;
}

/**
 * The player_history table: who was on each server, from when to when, and who he was (the value of the
 * identity the game reported; its kind is the game's player identity, which the table need not repeat).
 */
export class PlayerHistoryRepository {
  constructor(private readonly knex: Knex) {}

  private open(serverId: number, slotId: string, name: string) {
    return this.knex('player_history').where({ server_id: serverId, slot_id: slotId, player_name: name }).whereNull('left_at');
  }

  /**
   * A visit begins, unless this player is already on in this slot (then only an identity it lacked is
   * added). Whether this began a visit (false: the player was already on, seen by the poll or the game's message).
   */
  async joined(serverId: number, slotId: string, name: string, id: PlayerIdentity | null, at: string): Promise<boolean> {
    const guid = id?.value ?? null;
    const existing = await this.open(serverId, slotId, name).first('id', 'guid');
    if (existing) {
      if (guid && !existing.guid) await this.knex('player_history').where({ id: existing.id }).update({ guid });
      return false;
    }
    await this.knex('player_history').insert({
      server_id: serverId,
      slot_id: slotId,
      player_name: name.slice(0, 255),
      guid,
      joined_at: at,
      left_at: null,
    });
    return true;
  }

  async identified(serverId: number, slotId: string, name: string, id: PlayerIdentity): Promise<void> {
    await this.open(serverId, slotId, name).update({ guid: id.value });
  }

  /** The identity's value of the visit it ended, or undefined when the player was not on. */
  async left(serverId: number, slotId: string, name: string, at: string): Promise<{ guid: string | null } | undefined> {
    const visit = await this.open(serverId, slotId, name).first('id', 'guid');
    if (!visit) return undefined;
    await this.knex('player_history').where({ id: visit.id }).update({ left_at: at });
    return { guid: visit.guid ?? null };
  }

  /** Everyone still on has left (the server is gone). */
  async allLeft(serverId: number, at: string): Promise<void> {
    await this.knex('player_history').where({ server_id: serverId }).whereNull('left_at').update({ left_at: at });
  }

  async pruneEndedBefore(cutoff: string, fence: Fence = (q) => q): Promise<number> {
    return fence(this.knex('player_history').whereNotNull('left_at').andWhere('left_at', '<', cutoff)).delete();
  }

  async page(serverId: number, query: { limit: number; offset: number; search?: string }): Promise<{ total: number; rows: VisitRow[] }> {
    const base = this.knex('player_history').where('server_id', serverId);
    if (query.search) whereContains(base, 'player_name', query.search);
    const [{ count }] = await base.clone().count({ count: '*' });
    const rows = await base
      .clone()
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .select('id', 'player_name', 'guid', 'joined_at', 'left_at');
    return { total: Number(count), rows: rows.map((r) => ({ ...r, id: Number(r.id) })) };
  }
}
