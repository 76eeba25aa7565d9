import { stat } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { ACTIVE_STATUSES, type ServerListItem, type ServerWarning, ifUnreadable } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, ListRow } from '../db/repositories/index.js';
import { configVersionOf } from '../db/repositories/config-sections.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { Job, JobRunner } from '../jobs/runner.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { EventBus } from '../events/bus.js';

/** How often every server's executable is looked for: one that was moved or deleted shows on its card. */
const EXE_CHECK_MS = 30_000;

type Glance = Pick<ServerListItem, 'hostname' | 'max_players' | 'mission' | 'warnings'>;

/** Warnings another feature knows (the Workshop's outdated mods): read from its tables, which the list's kept answers follow. */
export interface WarningSource {
  tables: readonly string[];
  warningsOf(serverIds: readonly number[]): Promise<Map<number, ServerWarning[]>>;
}

/**
 * What an admin needs to see of a server at a glance, beyond its record: the name players see and the
 * player limit (from the config, through the adapter's `glance`), and what needs attention.
 */
@injectable()
export class ServerGlance implements Lifecycle {
  private readonly missingExes = new Set<number>();
  /** Each server's game, which never changes: a log line is matched without a read of the record. */
  private readonly gameTypes = new Map<number, string>();
  private job: Job | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly sources: WarningSource[] = [];
  /** Moves when a server's executable appears or goes, so that a reused list is made again. */
  version = 0;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Jobs) private readonly jobs: JobRunner,
    @inject(TOKENS.Events) private readonly events: EventBus,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
  ) {}

  start(): void {
    this.job = this.jobs.every({ name: 'servers.exe-check', everyMs: EXE_CHECK_MS, run: () => this.checkAll() });
    // The mission a game plays is what its log last said: kept on the server's record when it changes.
    this.unsubscribe = this.events.subscribe((event) => {
      if (event.type === 'log') void this.noteMission(event.server_id, event.data.message);
    });
  }

  stop(): void {
    this.job?.cancel();
    this.unsubscribe?.();
  }

  private async noteMission(serverId: number, message: string): Promise<void> {
    // The adapter's rule first (each game words it its own way: a mission, a map), the record only for a match.
    let gameType = this.gameTypes.get(serverId);
    if (gameType === undefined) {
      const found = await this.repos.servers.find(serverId);
      if (!found) return;
      this.gameTypes.set(serverId, (gameType = found.game_type));
    }
    const mission = this.adapters.get(gameType).capabilities.log_parser?.missionOf?.(message);
    if (!mission) return;
    const row = await this.repos.servers.find(serverId);
    if (!row || mission === row.current_mission) return;
    await this.repos.servers.update(serverId, { current_mission: mission });
    this.events.publish({ type: 'server_mission', server_id: serverId, data: { mission } });
  }

  /** Looks for the server's executable now (at create, update, and in the periodic pass). */
  async checkExe(server: { id: number; exe_path: string }): Promise<void> {
    const found = await stat(server.exe_path).then((s) => s.isFile(), ifUnreadable(false));
    if (found === !this.missingExes.has(server.id)) return;
    if (found) this.missingExes.delete(server.id);
    else this.missingExes.add(server.id);
    this.version += 1;
  }

  forget(serverId: number): void {
    this.gameTypes.delete(serverId);
    if (this.missingExes.delete(serverId)) this.version += 1;
  }

  private async checkAll(): Promise<void> {
    for (const server of await this.repos.servers.all(this.nodeId)) await this.checkExe(server);
  }

  /** Adds the warnings of another feature to every server's glance (registered at start, before any read). */
  addWarnings(source: WarningSource): void {
    this.sources.push(source);
  }

  /** The tables the warnings of other features are read from. */
  get sourceTables(): string[] {
    return this.sources.flatMap((s) => s.tables);
  }

  /** The glance of each of these servers, read in one query of their config sections (and one per warning source). */
  async of(rows: readonly ListRow[]): Promise<Map<number, Glance>> {
    const sections = rows.length ? await this.repos.configSections.ofServers(rows.map((r) => r.id)) : [];
    const configs = new Map<number, { values: Record<string, Record<string, unknown>>; version: number }>();
    const byServer = new Map<number, typeof sections>();
    for (const section of sections) byServer.set(section.server_id, [...(byServer.get(section.server_id) ?? []), section]);
    for (const [id, own] of byServer)
      configs.set(id, { values: Object.fromEntries(own.map((s) => [s.section, s.data])), version: configVersionOf(own) });
    const glances = new Map(rows.map((row) => [row.id, this.glanceOf(row, configs.get(row.id))]));
    for (const source of this.sources) {
      for (const [id, warnings] of await source.warningsOf(rows.map((r) => r.id))) glances.get(id)?.warnings.push(...warnings);
    }
    return glances;
  }

  private glanceOf(row: ListRow, config: { values: Record<string, Record<string, unknown>>; version: number } | undefined): Glance {
    const seen = config ? this.adapters.get(row.game_type).capabilities.config_generator?.glance?.(config.values) : undefined;
    const warnings: ServerWarning[] = [];
    if (this.missingExes.has(row.id)) warnings.push('exe_missing');
    if (row.status === 'crashed' && row.auto_restart && row.restart_count >= row.max_restarts) warnings.push('crash_loop');
    const active = (ACTIVE_STATUSES as readonly string[]).includes(row.status);
    if (active && row.started_config_version !== null && config && config.version > row.started_config_version)
      warnings.push('restart_needed');
    return {
      hostname: seen?.hostname || null,
      max_players: Number.isInteger(seen?.max_players) ? seen!.max_players! : null,
      mission: active ? row.current_mission : null,
      warnings,
    };
  }
}
