import type { Knex } from 'knex';
import { ACTIVE_STATUSES, IDLE_STATUSES, type ServerStatus } from '@garrison/core';

/** A server as the services know it. Its game process is a row of the processes table; `pid` and `started_at` are read from it. */
export interface ServerRow {
  id: number;
  name: string;
  description: string | null;
  game_type: string;
  status: ServerStatus;
  exe_path: string;
  game_port: number;
  rcon_port: number;
  auto_restart: boolean;
  max_restarts: number;
  restart_count: number;
  headless_clients: number;
  backup_keep: number;
  backup_exclude: string[] | null;
  started_config_version: number | null;
  current_mission: string | null;
  node_id: string | null;
  installation_key: string | null;
  folders_pending: boolean;
  created_at: string;
  updated_at: string;
  /** The game process's pid, while it has one. */
  pid: number | null;
  /** When the game process was started, while it runs. */
  started_at: string | null;
}

/** What the server's record holds of its process: the rest is the process row's. */
type OfProcess = 'pid' | 'started_at';
export type NewServer = Omit<ServerRow, 'id' | OfProcess>;

/** The columns of a list item: the list reads only these. */
const LIST_COLUMNS = [
  'id',
  'name',
  'description',
  'game_type',
  'status',
  'game_port',
  'rcon_port',
  'auto_restart',
  'max_restarts',
  'restart_count',
  'headless_clients',
  'started_config_version',
  'current_mission',
  'node_id',
] as const;
export type ListRow = Pick<ServerRow, (typeof LIST_COLUMNS)[number] | OfProcess>;
/** What a webhook says of a server: its name; its restarts, to tell a crash loop. */
export type ServerFacts = Pick<ServerRow, 'id' | 'name' | 'restart_count' | 'max_restarts' | 'auto_restart'>;

export type ServerPatch = Partial<Omit<ServerRow, 'id' | 'created_at' | OfProcess>>;
/** What a state change writes on the game's process row, with the server's, in the same transaction. */
export interface GameProcessPatch {
  status?: ServerStatus;
  /** Null: the process is gone (its kernel start time goes with it). */
  pid?: null;
  updated_at: string;
}

const GAME = { role: 'server', idx: 0 } as const;
type Stored = Record<string, unknown>;

/** The stored row as a server: flags as booleans (both databases hand back 0/1), the exclusions parsed. */
function toServer<T extends Stored>(row: T): ServerRow {
  const { game_pid, game_started_at, ...own } = row as Stored;
  const pid = (game_pid as number | null | undefined) ?? null;
  return {
    ...(own as unknown as ServerRow),
    auto_restart: Boolean(own.auto_restart),
    ...('folders_pending' in own ? { folders_pending: Boolean(own.folders_pending) } : {}),
    ...('backup_exclude' in own
      ? { backup_exclude: typeof own.backup_exclude === 'string' ? (JSON.parse(own.backup_exclude) as string[]) : null }
      : {}),
    pid,
    started_at: pid === null ? null : ((game_started_at as string | null) ?? null),
  };
}

function toStored(patch: ServerPatch): Stored {
  return 'backup_exclude' in patch
    ? { ...patch, backup_exclude: patch.backup_exclude ? JSON.stringify(patch.backup_exclude) : null }
    : { ...patch };
}

/** The servers table (and the config sections made with a server), each server with its game process. */
export class ServerRepository {
  constructor(private readonly knex: Knex) {}

  /** Servers joined with their game's process row: the one place a server's pid is read from. */
  private withGame(columns: readonly string[] | null = null, on: Knex = this.knex) {
    return on('servers')
      .leftJoin('processes as game', (j) =>
        j.on('game.server_id', 'servers.id').andOnVal('game.role', GAME.role).andOnVal('game.idx', GAME.idx),
      )
      .select(columns ? columns.map((c) => `servers.${c}`) : ['servers.*'])
      .select({ game_pid: 'game.pid', game_started_at: 'game.started_at' });
  }

  /** `trx`: read inside the caller's transaction (SQLite's one connection would wait on it otherwise). */
  async find(id: number, trx?: Knex.Transaction): Promise<ServerRow | undefined> {
    const row = await this.withGame(null, trx ?? this.knex)
      .where('servers.id', id)
      .first();
    return row ? toServer(row) : undefined;
  }

  /** What a webhook says of a server (its name; its restarts, to tell a crash loop), read in the caller's transaction. */
  async facts(id: number, trx?: Knex.Transaction): Promise<ServerFacts | undefined> {
    const row = await (trx ?? this.knex)('servers')
      .select('id', 'name', 'restart_count', 'max_restarts', 'auto_restart')
      .where({ id })
      .first();
    return row ? { ...row, auto_restart: Boolean(row.auto_restart) } : undefined;
  }

  /** Which of these ids name no server (one query, however many). */
  async unknownOf(ids: readonly number[]): Promise<number[]> {
    if (!ids.length) return [];
    const known = new Set((await this.knex('servers').whereIn('id', ids).select('id')).map((r: { id: number }) => r.id));
    return ids.filter((id) => !known.has(id));
  }

  /** Every server, or those a node owns. */
  async all(nodeId?: string): Promise<ServerRow[]> {
    const query = this.withGame().orderBy('servers.id');
    if (nodeId !== undefined) query.where('servers.node_id', nodeId);
    return (await query).map(toServer);
  }

  /** Where the servers of these nodes run from: what tells which of them share an installation. */
  async installations(nodeIds: readonly string[]): Promise<Pick<ServerRow, 'id' | 'name' | 'exe_path' | 'node_id'>[]> {
    if (!nodeIds.length) return [];
    return this.knex('servers').select('id', 'name', 'exe_path', 'node_id').whereIn('node_id', nodeIds).orderBy('id');
  }

  /** This node's servers whose files still wait to be copied into folders of their own (made before each had its own). */
  async foldersPending(nodeId: string): Promise<ServerRow[]> {
    return (await this.withGame().where({ 'servers.node_id': nodeId, 'servers.folders_pending': true }).orderBy('servers.id')).map(
      toServer,
    );
  }

  /** Servers recorded before there were nodes become this node's (a single instance's, or the first of a new cluster's). */
  async claimUnowned(nodeId: string): Promise<number> {
    return this.knex('servers').whereNull('node_id').update({ node_id: nodeId });
  }

  async countByNode(): Promise<Map<string, number>> {
    const rows: { node_id: string | null; n: number | string }[] = await this.knex('servers')
      .select('node_id')
      .count({ n: '*' })
      .groupBy('node_id');
    return new Map(rows.map((r) => [r.node_id ?? '', Number(r.n)]));
  }

  async inStatuses(statuses: readonly ServerStatus[]): Promise<ServerRow[]> {
    return (await this.withGame().whereIn('servers.status', statuses).orderBy('servers.id')).map(toServer);
  }

  /** This node's servers recorded with a process under way that have no game process row (left by an older version). */
  async activeWithoutProcess(nodeId: string): Promise<ServerRow[]> {
    const rows = await this.withGame()
      .where('servers.node_id', nodeId)
      .whereIn('servers.status', ACTIVE_STATUSES)
      .whereNull('game.id')
      .orderBy('servers.id');
    return rows.map(toServer);
  }

  /** The dashboard's hot read: the list columns and the game's process. */
  async list(filter: { game_type?: string; limit?: number; offset?: number; only?: readonly number[] | null }): Promise<ListRow[]> {
    const query = this.withGame(LIST_COLUMNS)
      .orderBy('servers.id')
      .limit(filter.limit ?? 50)
      .offset(filter.offset ?? 0);
    if (filter.game_type) query.where('servers.game_type', filter.game_type);
    if (filter.only) query.whereIn('servers.id', filter.only);
    return (await query).map(toServer);
  }

  /** `only`: these servers' (a key limited to them); null: every server's. */
  async counts(only: readonly number[] | null = null): Promise<{ running: number; total: number }> {
    const count = async (active: boolean) => {
      const query = this.knex('servers').count({ n: '*' });
      if (only) query.whereIn('id', only);
      if (active) query.whereIn('status', ACTIVE_STATUSES);
      return Number(((await query) as { n: number | string }[])[0].n);
    };
    const [total, running] = await Promise.all([count(false), count(true)]);
    return { running, total };
  }

  /** Another server of the same node (ports are a host's) using one of these ports for its game or its remote admin. */
  async clash(
    ports: number[],
    nodeId: string,
    exceptId?: number,
  ): Promise<Pick<ServerRow, 'id' | 'name' | 'game_port' | 'rcon_port'> | undefined> {
    const query = this.knex('servers')
      .select('id', 'name', 'game_port', 'rcon_port')
      .where('node_id', nodeId)
      .where((q) => {
        q.whereIn('game_port', ports).orWhereIn('rcon_port', ports);
      });
    if (exceptId !== undefined) query.whereNot('id', exceptId);
    return query.first();
  }

  /** The record and its config sections, in `trx`: the transaction of the whole change (with its audit entry). */
  async create(
    server: NewServer,
    sections: { section: string; data: Record<string, unknown> }[],
    trx: Knex.Transaction,
  ): Promise<ServerRow> {
    const [id] = await trx('servers').insert(toStored(server));
    for (const s of sections)
      await trx('config_sections').insert({ server_id: id, section: s.section, data: JSON.stringify(s.data), config_version: 1 });
    return (await this.find(id, trx))!;
  }

  async update(id: number, patch: ServerPatch, trx?: Knex.Transaction): Promise<ServerRow> {
    await (trx ?? this.knex)('servers').where({ id }).update(toStored(patch));
    const row = await this.find(id, trx);
    if (!row) throw new Error(`server ${id} is gone`);
    return row;
  }

  /**
   * Changes the record only while it is still as expected (a status among `from`, the game process
   * `pid`), and the game's process row with it, in the caller's transaction (which holds the change's audit
   * entry too): the compare-and-set every state change of the supervisor rests on. True when it changed.
   */
  async transition(
    id: number,
    expect: { from?: readonly ServerStatus[]; pid?: number },
    patch: ServerPatch,
    game: GameProcessPatch | undefined,
    trx: Knex.Transaction,
  ): Promise<boolean> {
    const query = trx('servers').where({ id });
    if (expect.from) query.whereIn('status', expect.from);
    if (expect.pid !== undefined) {
      query.whereExists((q) => {
        q.select(1)
          .from('processes')
          .where({ server_id: id, ...GAME, pid: expect.pid });
      });
    }
    if (!((await query.update(toStored(patch))) > 0)) return false;
    if (game)
      await trx('processes')
        .where({ server_id: id, ...GAME })
        .update({ ...game, ...(game.pid === null ? { start_time: null } : {}) });
    return true;
  }

  /** Deletes a server without a process (a start racing the delete leaves it alone). */
  async deleteIdle(id: number, trx?: Knex.Transaction): Promise<boolean> {
    return (await (trx ?? this.knex)('servers').where({ id }).whereIn('status', IDLE_STATUSES).delete()) > 0;
  }
}
