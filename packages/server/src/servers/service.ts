import { rm, mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { Mutex } from 'async-mutex';
import {
  ACTIVE_STATUSES,
  ApiError,
  IDLE_STATUSES,
  sectionDefaults,
  type AdapterDefinition,
  type Capability,
  type CapabilityMap,
  type ServerContext,
  type CreateServerRequest,
  type ServerDetail,
  type ServerListItem,
  type UpdateServerRequest,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Models } from '../db/models/index.js';
import type { ServerModel } from '../db/models/ServerModel.js';
import type { Settings } from '../settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { serverContext, serverDir } from './context.js';
import { LiveFigures } from '../metrics/live-values.js';
import { assertPortsFree } from './ports.js';


const now = () => new Date().toISOString();

/** The columns of a list item: the list reads only these. */
const LIST_COLUMNS = ['id', 'name', 'description', 'game_type', 'status', 'pid', 'game_port', 'rcon_port', 'auto_restart', 'max_restarts', 'restart_count', 'started_at'] as const;
type ListRow = Pick<ServerModel, (typeof LIST_COLUMNS)[number]>;

export function toListItem(row: ListRow): ServerListItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    game_type: row.game_type,
    status: row.status,
    pid: row.pid,
    game_port: row.game_port,
    rcon_port: row.rcon_port,
    // Both databases hand booleans back as 0/1 when no model converts them.
    auto_restart: Boolean(row.auto_restart),
    max_restarts: row.max_restarts,
    restart_count: row.restart_count,
    player_count: null,
    cpu_percent: null,
    ram_mb: null,
    started_at: row.started_at,
  };
}

export function toDetail(row: ServerModel): ServerDetail {
  const alive = row.started_at && ACTIVE_STATUSES.includes(row.status);
  const uptime = alive ? Math.max(0, Math.floor((Date.now() - Date.parse(row.started_at!)) / 1000)) : 0;
  return { ...toListItem(row), exe_path: row.exe_path, uptime_seconds: uptime };
}

@injectable()
export class ServerService {
  /** Serialises the check-then-write of ports, so two concurrent requests cannot take the same port. */
  readonly portLock = new Mutex();

  constructor(
    @inject(TOKENS.Models) private readonly models: Models,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Settings,
    @inject(LiveFigures) private readonly live: LiveFigures,
  ) {}

  async row(id: number): Promise<ServerModel> {
    const row = await this.models.Server.query().findById(id);
    if (!row) throw new ApiError('NOT_FOUND', `no server ${id}`);
    return row;
  }

  async adapterOf(id: number): Promise<AdapterDefinition> {
    return this.adapters.get((await this.row(id)).game_type);
  }

  /**
   * A server with one capability of its adapter (400 `NOT_SUPPORTED` without it) and what the adapter
   * may know of the server: what every file-handling feature starts from.
   */
  async withCapability<C extends Capability>(id: number, name: C): Promise<{ row: ServerModel; capability: CapabilityMap[C]; ctx: ServerContext }> {
    const row = await this.row(id);
    const capability = this.adapters.require(this.adapters.get(row.game_type), name);
    return { row, capability, ctx: serverContext(row, this.settings.dataDir) };
  }

  /** What the list is made of, for reusing its answer while neither changes. */
  readonly listSources = { tables: ['servers'], version: () => this.live.version } as const;

  /** The dashboard's hot read: plain rows of the list columns, without building models. */
  async list(filter: { game_type?: string; limit?: number; offset?: number }): Promise<ServerListItem[]> {
    const query = this.models.Server.knex()('servers').select(LIST_COLUMNS).orderBy('id').limit(filter.limit ?? 50).offset(filter.offset ?? 0);
    if (filter.game_type) query.where('game_type', filter.game_type);
    return ((await query) as ListRow[]).map((row) => ({ ...toListItem(row), ...this.live.get(row.id) }));
  }

  async get(id: number): Promise<ServerDetail> {
    return { ...toDetail(await this.row(id)), ...this.live.get(id) };
  }

  async counts(): Promise<{ running: number; total: number }> {
    const [total, running] = await Promise.all([
      this.models.Server.query().resultSize(),
      this.models.Server.query().whereIn('status', ACTIVE_STATUSES).resultSize(),
    ]);
    return { running, total };
  }

  assertExecutableAllowed(adapter: AdapterDefinition, exePath: string): void {
    const allowed = adapter.capabilities.process_config?.allowedExecutables ?? [];
    const name = basename(exePath.replace(/\\/g, '/'));
    if (!allowed.includes(name)) {
      throw new ApiError('EXE_NOT_ALLOWED', `executable ${JSON.stringify(name)} is not allowed for ${adapter.identity.game_type}; allowed: ${allowed.join(', ') || 'none'}`);
    }
  }

  /** Creates the record, its config sections with defaults and fresh credentials, and its folder; the credentials are returned beside the server, this once. */
  async create(input: CreateServerRequest): Promise<ServerDetail> {
    const adapter = this.adapters.get(input.game_type ?? 'gamea', 400);
    this.assertExecutableAllowed(adapter, input.exe_path);
    const ports = { game_port: input.game_port, rcon_port: input.rcon_port ?? input.game_port + 3 };
    if (ports.rcon_port > 65535) throw new ApiError('VALIDATION_ERROR', `rcon_port defaults to game_port + 3 = ${ports.rcon_port}, above 65535; give rcon_port`);

    const generator = adapter.capabilities.config_generator;
    const credentials = generator?.generateCredentials() ?? {};
    const row = await this.portLock.runExclusive(async () => {
      await assertPortsFree(this.models, ports);
      return this.models.Server.transaction(async (trx) => {
        const stamp = now();
        const created = await this.models.Server.query(trx).insertAndFetch({
          name: input.name,
          description: input.description ?? null,
          game_type: adapter.identity.game_type,
          status: 'stopped',
          pid: null,
          exe_path: input.exe_path,
          ...ports,
          auto_restart: input.auto_restart ?? false,
          max_restarts: input.max_restarts ?? 3,
          restart_count: 0,
          started_at: null,
          process_start_time: null,
          created_at: stamp,
          updated_at: stamp,
        });
        for (const [section, schema] of Object.entries(generator?.sections ?? {})) {
          const data = { ...sectionDefaults(schema), ...credentials[section] };
          delete data.rcon_port; // lives on the server record
          await this.models.ConfigSection.query(trx).insert({ server_id: created.id, section, data: JSON.stringify(data), config_version: 1 });
        }
        return created;
      });
    });
    await mkdir(serverDir(this.settings.dataDir, row.id), { recursive: true });
    const secrets = Object.assign({}, ...Object.values(credentials)) as Record<string, string>;
    return { ...toDetail(row), ...secrets };
  }

  async update(id: number, patch: UpdateServerRequest): Promise<ServerDetail> {
    return this.portLock.runExclusive(async () => {
      const row = await this.row(id);
      if (patch.exe_path !== undefined) this.assertExecutableAllowed(this.adapters.get(row.game_type), patch.exe_path);
      if (patch.game_port !== undefined || patch.rcon_port !== undefined) {
        await assertPortsFree(this.models, { game_port: patch.game_port ?? row.game_port, rcon_port: patch.rcon_port ?? row.rcon_port }, id);
      }
      const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const updated = await this.models.Server.query().patchAndFetchById(id, { ...changes, updated_at: now() });
      return toDetail(updated);
    });
  }

  async delete(id: number): Promise<void> {
    const row = await this.row(id);
    if (!IDLE_STATUSES.includes(row.status)) {
      throw new ApiError('SERVER_NOT_STOPPED', `server ${id} is ${row.status}; stop it before deleting`);
    }
    // Conditional on the status, so a start racing this delete cannot leave a running server without a record.
    const deleted = await this.models.Server.query().deleteById(id).whereIn('status', IDLE_STATUSES);
    if (!deleted) throw new ApiError('SERVER_NOT_STOPPED', `server ${id} changed state; stop it before deleting`);
    // Retried: the log follower may still be writing its last offsets into the folder as it goes.
    await rm(serverDir(this.settings.dataDir, id), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
}
