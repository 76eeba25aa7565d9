import type { Knex } from 'knex';
import { ACTIVE_STATUSES, IDLE_STATUSES, type ServerStatus } from '@garrison/core';
import { ServerModel } from '../models/ServerModel.js';
import { ConfigSectionModel } from '../models/ConfigSectionModel.js';

export type ServerRow = Pick<
  ServerModel,
  | 'id' | 'name' | 'description' | 'game_type' | 'status' | 'pid' | 'exe_path' | 'game_port' | 'rcon_port' | 'auto_restart'
  | 'max_restarts' | 'restart_count' | 'headless_clients' | 'backup_keep' | 'backup_exclude' | 'started_at' | 'process_start_time' | 'started_config_version' | 'current_mission' | 'node_id' | 'installation_key' | 'folders_pending' | 'created_at' | 'updated_at'
>;
export type NewServer = Omit<ServerRow, 'id'>;

/** The columns of a list item: the list reads only these. */
const LIST_COLUMNS = ['id', 'name', 'description', 'game_type', 'status', 'pid', 'game_port', 'rcon_port', 'auto_restart', 'max_restarts', 'restart_count', 'headless_clients', 'started_at', 'started_config_version', 'current_mission', 'node_id'] as const;
export type ListRow = Pick<ServerRow, (typeof LIST_COLUMNS)[number]>;

type RecordPatch = Partial<Omit<ServerRow, 'id' | 'created_at'>>;

/** The servers table (and the config sections made with a server). */
export class ServerRepository {
  private readonly Server: typeof ServerModel;
  private readonly Section: typeof ConfigSectionModel;

  constructor(private readonly knex: Knex) {
    this.Server = ServerModel.bindKnex(knex);
    this.Section = ConfigSectionModel.bindKnex(knex);
  }

  async find(id: number): Promise<ServerRow | undefined> {
    return this.Server.query().findById(id);
  }

  /** What a webhook says of a server (its name; its restarts, to tell a crash loop), read in the caller's transaction. */
  facts(id: number, trx?: Knex.Transaction): Promise<{ id: number; name: string; restart_count: number; max_restarts: number; auto_restart: boolean | number } | undefined> {
    return (trx ?? this.knex)('servers').select('id', 'name', 'restart_count', 'max_restarts', 'auto_restart').where({ id }).first();
  }

  /** Which of these ids name no server (one query, however many). */
  async unknownOf(ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const known = new Set((await this.knex('servers').whereIn('id', ids).select('id')).map((r: { id: number }) => r.id));
    return ids.filter((id) => !known.has(id));
  }

  /** Every server, or those a node owns. */
  async all(nodeId?: string): Promise<ServerRow[]> {
    const query = this.Server.query().orderBy('id');
    if (nodeId !== undefined) query.where('node_id', nodeId);
    return query;
  }

  /** Where the servers of these nodes run from: what tells which of them share an installation. */
  async installations(nodeIds: readonly string[]): Promise<Pick<ServerRow, 'id' | 'name' | 'exe_path' | 'node_id'>[]> {
    if (!nodeIds.length) return [];
    return this.knex('servers').select('id', 'name', 'exe_path', 'node_id').whereIn('node_id', nodeIds).orderBy('id');
  }

  /** This node's servers whose files still wait to be copied into folders of their own (made before each had its own). */
  async foldersPending(nodeId: string): Promise<ServerRow[]> {
    return this.Server.query().where({ node_id: nodeId, folders_pending: true }).orderBy('id');
  }

  /** Servers recorded before there were nodes become this node's (a single instance's, or the first of a new cluster's). */
  async claimUnowned(nodeId: string): Promise<number> {
    return this.knex('servers').whereNull('node_id').update({ node_id: nodeId });
  }

  async countByNode(): Promise<Map<string, number>> {
    const rows: { node_id: string | null; n: number | string }[] = await this.knex('servers').select('node_id').count({ n: '*' }).groupBy('node_id');
    return new Map(rows.map((r) => [r.node_id ?? '', Number(r.n)]));
  }

  async inStatuses(statuses: readonly ServerStatus[]): Promise<ServerRow[]> {
    return this.Server.query().whereIn('status', statuses).orderBy('id');
  }

  async activeWithoutProcess(nodeId: string): Promise<ServerRow[]> {
    return this.Server.query()
      .where('node_id', nodeId)
      .whereIn('status', ACTIVE_STATUSES)
      .whereNotExists((q) => { q.select(1).from('processes').whereRaw('processes.server_id = servers.id').andWhere('processes.role', 'server'); });
  }

  /** The dashboard's hot read: plain rows of the list columns, without building models. */
  async list(filter: { game_type?: string; limit?: number; offset?: number; only?: readonly number[] | null }): Promise<ListRow[]> {
    const query = this.knex('servers').select(LIST_COLUMNS).orderBy('id').limit(filter.limit ?? 50).offset(filter.offset ?? 0);
    if (filter.game_type) query.where('game_type', filter.game_type);
    if (filter.only) query.whereIn('id', filter.only);
    return query;
  }

  /** `only`: these servers' (a key limited to them); null: every server's. */
  async counts(only: readonly number[] | null = null): Promise<{ running: number; total: number }> {
    const of = () => (only ? this.Server.query().whereIn('id', only) : this.Server.query());
    const [total, running] = await Promise.all([of().resultSize(), of().whereIn('status', ACTIVE_STATUSES).resultSize()]);
    return { running, total };
  }

  /** Another server using one of these ports for its game or its remote admin. */
  /** Ports are a host's: only servers of the same node clash. */
  async clash(ports: number[], nodeId: string, exceptId?: number): Promise<Pick<ServerRow, 'id' | 'name' | 'game_port' | 'rcon_port'> | undefined> {
    const query = this.Server.query()
      .select('id', 'name', 'game_port', 'rcon_port')
      .where('node_id', nodeId)
      .where((q) => { q.whereIn('game_port', ports).orWhereIn('rcon_port', ports); });
    if (exceptId !== undefined) query.whereNot('id', exceptId);
    return query.first();
  }

  /** The record and its config sections, in one transaction. */
  async create(server: NewServer, sections: { section: string; data: string }[]): Promise<ServerRow> {
    return this.Server.transaction(async (trx) => {
      const created = await this.Server.query(trx).insertAndFetch(server);
      for (const s of sections) await this.Section.query(trx).insert({ server_id: created.id, ...s, config_version: 1 });
      return created;
    });
  }

  async update(id: number, patch: RecordPatch): Promise<ServerRow> {
    return this.Server.query().patchAndFetchById(id, patch);
  }

  /**
   * Changes the record only while it is still as expected (a status among `from`, the process `pid`):
   * the compare-and-set every state change of the supervisor rests on. True when it changed.
   */
  async transition(id: number, expect: { from?: readonly ServerStatus[]; pid?: number }, patch: RecordPatch): Promise<boolean> {
    const query = this.Server.query().findById(id);
    if (expect.from) query.whereIn('status', expect.from);
    if (expect.pid !== undefined) query.where('pid', expect.pid);
    return (await query.patch(patch)) > 0;
  }

  /** Deletes a server without a process (a start racing the delete leaves it alone). */
  async deleteIdle(id: number): Promise<boolean> {
    return (await this.Server.query().deleteById(id).whereIn('status', IDLE_STATUSES)) > 0;
  }
}
