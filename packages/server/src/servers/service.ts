import { rm, mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { Mutex } from 'async-mutex';
import {
  ApiError,
  IDLE_STATUSES,
  isSensitive,
  sectionDefaults,
  type Actor,
  type ConfigValues,
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
import type { Repositories, ListRow, ServerRow } from '../db/repositories/index.js';
import type { ServerSettings } from './settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { AuditService } from '../audit/service.js';
import { serverContext, serverDir } from './context.js';
import { LiveFigures } from '../metrics/live-values.js';
import { assertPortsFree, recordPorts, remoteAdminOnGamePort, type ServerPorts } from './ports.js';
import { ServerLocks } from './locks.js';
import { ServerGlance } from './glance.js';
import { NodeService } from '../nodes/service.js';
import { installationOf, sharingWith } from './installation.js';
import { GameRoots, type GameRootSettings } from './game-roots.js';
import { toDetail, toListItem } from './record-view.js';

/** Server records: create, read, change, delete, each recorded in the audit trail by who did it. */
@injectable()
export class ServerService {
  /** Serialises the check-then-write of ports, so two concurrent requests cannot take the same port. */
  readonly portLock = new Mutex();
  /** Where executables may be (GARRISON_GAME_ROOTS) and where never (the service's own folders). */
  readonly gameRoots: GameRoots;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: ServerSettings & GameRootSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(LiveFigures) private readonly live: LiveFigures,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(ServerGlance) private readonly glance: ServerGlance,
    @inject(NodeService) private readonly nodes: NodeService,
  ) {
    this.gameRoots = new GameRoots(settings);
  }

  /** The server, or null when there is none (it was deleted meanwhile). */
  async find(id: number): Promise<ServerRow | null> {
    return (await this.repos.servers.find(id)) ?? null;
  }

  async row(id: number): Promise<ServerRow> {
    const row = await this.repos.servers.find(id);
    if (!row) throw new ApiError('NOT_FOUND', `no server ${id}`);
    return row;
  }

  /** This node's servers recorded with a process under way that no instance has a process row for (left by an older version). */
  activeWithoutProcess(): Promise<ServerRow[]> {
    return this.repos.servers.activeWithoutProcess(this.nodes.nodeId);
  }

  /** This node's servers, for work that visits each one (the others' is done by their own nodes). */
  owned(): Promise<ServerRow[]> {
    return this.repos.servers.all(this.nodes.nodeId);
  }

  async adapterOf(id: number): Promise<AdapterDefinition> {
    return this.adapters.get((await this.row(id)).game_type);
  }

  /**
   * A server with one capability of its adapter (400 `NOT_SUPPORTED` without it) and what the adapter
   * may know of the server: what every file-handling feature starts from.
   */
  async withCapability<C extends Capability>(
    id: number,
    name: C,
  ): Promise<{ row: ServerRow; capability: CapabilityMap[C]; ctx: ServerContext }> {
    const row = await this.row(id);
    const capability = this.adapters.require(this.adapters.get(row.game_type), name);
    return { row, capability, ctx: serverContext(row, this.settings.dataDir) };
  }

  /** What the list is made of, for reusing its answer while neither changes. */
  readonly listSources = listReadSources(
    () => this.glance.sourceTables,
    () => (this.live.version * 1_000_003 + this.glance.version) * 1009 + this.nodes.version,
  );

  /** `only`: these servers and no other (a key limited to some). */
  async list(filter: { game_type?: string; limit?: number; offset?: number; only?: readonly number[] | null }): Promise<ServerListItem[]> {
    return this.items(await this.repos.servers.list(filter));
  }

  /** This node's servers as the list shows them (for the figures each instance exposes about its own). */
  async ownedItems(): Promise<ServerListItem[]> {
    return this.items(await this.owned());
  }

  private async items(rows: ListRow[]): Promise<ServerListItem[]> {
    const glances = await this.glance.of(rows);
    return rows.map((row) => ({ ...toListItem(row), ...glances.get(row.id)!, ...this.live.get(row.id), ...this.nodes.view(row) }));
  }

  async get(id: number): Promise<ServerDetail> {
    return { ...(await this.detailOf(await this.row(id))), ...this.live.get(id) };
  }

  private async detailOf(row: ServerRow): Promise<ServerDetail> {
    return { ...toDetail(row, this.clock.now()), ...(await this.glance.of([row])).get(row.id)!, ...this.nodes.view(row) };
  }

  counts(only: readonly number[] | null = null): Promise<{ running: number; total: number }> {
    return this.repos.servers.counts(only);
  }

  assertExecutableAllowed(adapter: AdapterDefinition, exePath: string): void {
    const allowed = adapter.capabilities.process_config?.allowedExecutables ?? [];
    const name = basename(exePath.replace(/\\/g, '/'));
    if (!allowed.includes(name)) {
      throw new ApiError(
        'EXE_NOT_ALLOWED',
        `executable ${JSON.stringify(name)} is not allowed for ${adapter.identity.game_type}; allowed: ${allowed.join(', ') || 'none'}`,
      );
    }
    // The name alone would let a folder of the service's (or any folder) pass for a game's.
    this.gameRoots.assertExecutable(exePath);
  }

  /** Headless clients only for a game that has them (its adapter builds their arguments). */
  private assertHeadlessClients(adapter: AdapterDefinition, count: number | undefined): void {
    if (count && !adapter.capabilities.process_config?.headlessArguments) {
      throw new ApiError('VALIDATION_ERROR', `field 'headless_clients': ${adapter.identity.game_type} has no headless clients`);
    }
  }

  /**
   * Creates the record, its config sections with defaults and fresh credentials (under what an import
   * read, `imported`), and its folder; the credentials are returned beside the server, this once.
   */
  async create(
    input: CreateServerRequest,
    actor: Actor,
    imported: ConfigValues = {},
  ): Promise<ServerDetail & { installation_shared_with?: { id: number; name: string }[] } & Record<string, unknown>> {
    const adapter = this.adapters.get(input.game_type ?? this.settings.defaultGameType, 400);
    this.assertExecutableAllowed(adapter, input.exe_path);
    this.assertHeadlessClients(adapter, input.headless_clients);
    const ports = recordPorts(adapter, input.game_port, input.rcon_port);

    const generator = adapter.capabilities.config_generator;
    const credentials = generator?.generateCredentials() ?? {};
    const secrets: Record<string, unknown> = {};
    const sections = Object.entries(generator?.sections ?? {}).map(([section, schema]) => {
      const data = { ...sectionDefaults(schema), ...credentials[section], ...imported[section] };
      delete data.rcon_port; // lives on the server record
      for (const [name, field] of Object.entries(schema.properties)) {
        if ((name in (credentials[section] ?? {}) || (isSensitive(field) && data[name])) && name !== 'rcon_port')
          secrets[name] = data[name];
      }
      return { section, data };
    });
    const nodeId = await this.nodes.placement(input.node_id);
    let sharedWith: { id: number; name: string }[] = [];
    const row = await this.portLock.runExclusive(async () => {
      await assertPortsFree(this.repos.servers, ports, nodeId, { shared: remoteAdminOnGamePort(adapter) });
      const stamp = isoNow(this.clock);
      sharedWith = sharingWith({ exe_path: input.exe_path, node_id: nodeId }, await this.repos.servers.installations([nodeId]));
      return this.audit.inTransaction(async (trx) => {
        const created = await this.repos.servers.create(
          {
            name: input.name,
            description: input.description ?? null,
            game_type: adapter.identity.game_type,
            status: 'stopped',
            exe_path: input.exe_path,
            ...ports,
            auto_restart: input.auto_restart ?? false,
            max_restarts: input.max_restarts ?? 3,
            restart_count: 0,
            headless_clients: input.headless_clients ?? 0,
            backup_keep: input.backup_keep ?? 7,
            backup_exclude: input.backup_exclude ?? null,
            started_config_version: null,
            current_mission: null,
            node_id: nodeId,
            installation_key: null,
            folders_pending: false,
            created_at: stamp,
            updated_at: stamp,
          },
          sections,
          trx,
        );
        await this.audit.record(trx, { serverId: created.id, type: 'server_created', actor, detail: { name: created.name } });
        // Its id is its key: chosen now and kept, so that no later create or delete moves its files.
        return sharedWith.length ? this.repos.servers.update(created.id, { installation_key: String(created.id) }, trx) : created;
      });
    });
    await mkdir(serverDir(this.settings.dataDir, row.id), { recursive: true });
    // Said at once, not only at the first start: a path that points at nothing.
    await this.glance.checkExe(row);
    const detail = await this.detailOf(row);
    // Said once, here: each server has its own folders, but what the game reads from its installation is shared.
    // The contract's answer as it was for a server alone on its installation; the others are named when there are some.
    if (!sharedWith.length) return { ...detail, ...secrets };
    return { ...detail, warnings: [...detail.warnings, 'shares_installation' as const], installation_shared_with: sharedWith, ...secrets };
  }

  async update(id: number, patch: UpdateServerRequest, actor: Actor): Promise<ServerDetail> {
    const updated = await this.portLock.runExclusive(async () => {
      const row = await this.row(id);
      if (patch.exe_path !== undefined) this.assertExecutableAllowed(this.adapters.get(row.game_type), patch.exe_path);
      this.assertHeadlessClients(this.adapters.get(row.game_type), patch.headless_clients);
      const adapter = this.adapters.get(row.game_type);
      const shared = remoteAdminOnGamePort(adapter);
      let ports: ServerPorts | null = null;
      if (patch.game_port !== undefined || patch.rcon_port !== undefined) {
        const game_port = patch.game_port ?? row.game_port;
        ports = shared ? recordPorts(adapter, game_port, patch.rcon_port) : { game_port, rcon_port: patch.rcon_port ?? row.rcon_port };
        await assertPortsFree(this.repos.servers, ports, row.node_id ?? this.nodes.nodeId, { exceptServerId: id, shared });
      }
      const changes: Record<string, unknown> = {
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
        ...ports,
      };
      // Moved onto an installation another server uses: folders of its own there, as a new server gets.
      if (
        patch.exe_path !== undefined &&
        row.installation_key === null &&
        installationOf(patch.exe_path) !== installationOf(row.exe_path)
      ) {
        const nodeId = row.node_id ?? this.nodes.nodeId;
        if (sharingWith({ id, exe_path: patch.exe_path, node_id: nodeId }, await this.repos.servers.installations([nodeId])).length)
          changes.installation_key = String(id);
      }
      return this.audit.inTransaction(async (trx) => {
        const changed = await this.repos.servers.update(id, { ...changes, updated_at: isoNow(this.clock) }, trx);
        await this.audit.record(trx, { serverId: id, type: 'server_updated', actor, detail: { fields: Object.keys(patch) } });
        return changed;
      });
    });
    await this.glance.checkExe(updated);
    return this.detailOf(updated);
  }

  /** Under the server's lifecycle lock: a start cannot slip in between the status check and the delete. */
  delete(id: number, actor: Actor): Promise<void> {
    return this.locks.run(id, () => this.deleteLocked(id, actor));
  }

  private async deleteLocked(id: number, actor: Actor): Promise<void> {
    const row = await this.row(id);
    if (!IDLE_STATUSES.includes(row.status)) {
      throw new ApiError('SERVER_NOT_STOPPED', `server ${id} is ${row.status}; stop it before deleting`);
    }
    // Conditional on the status, so a start racing this delete cannot leave a running server without a record.
    // The entry names the server as it was: the trail keeps it after the record is gone.
    const deleted = await this.audit.inTransaction(async (trx) => {
      if (!(await this.repos.servers.deleteIdle(id, trx))) return false;
      const detail = { name: row.name, game_type: row.game_type, exe_path: row.exe_path };
      await this.audit.record(trx, { serverId: id, type: 'server_deleted', actor, target: { kind: 'server', id, name: row.name }, detail });
      return true;
    });
    if (!deleted) throw new ApiError('SERVER_NOT_STOPPED', `server ${id} changed state; stop it before deleting`);
    // Retried: the log follower may still be writing its last offsets into the folder as it goes.
    await rm(serverDir(this.settings.dataDir, id), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    this.glance.forget(id);
  }
}

/**
 * What the server list is read from: its own tables and those of the warnings other features add at start
 * (ServerGlance.addWarnings), read each time, as they are registered after the service is made.
 */
function listReadSources(warningTables: () => readonly string[], version: () => number) {
  return {
    get tables(): readonly string[] {
      return ['servers', 'processes', 'config_sections', ...warningTables()];
    },
    version,
  };
}
