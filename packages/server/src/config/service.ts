import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  ConfigSectionRead,
  enabledModsOf,
  sectionDefaults,
  type Static,
  TypeCompiler,
  widgetHintOf,
  type AdapterDefinition,
  type ConfigGenerator,
  type ConfigValues,
  type RenderedFile,
  type ServerContext,
  type TObject,
  type TypeCheck,
  type WidgetHint,
  type Actor,
} from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Repositories, ServerRow } from '../db/repositories/index.js';
import { configVersionOf } from '../db/repositories/config-sections.js';
import { isoNow, type Clock } from '../jobs/clock.js';
import { AuditService } from '../audit/service.js';
import type { DataSettings } from '../db/settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { describeFailure } from '../http/validation.js';
import { serverContext } from '../servers/context.js';
import { assertPortsFree } from '../servers/ports.js';
import { ServerService } from '../servers/service.js';
import { keepMaskedSecrets, maskSection, secretsSet } from './masking.js';
import { writeConfigFiles } from './files.js';

type SectionData = Record<string, unknown>;
export type SectionRead = SectionData & Static<typeof ConfigSectionRead>;

/** Section fields that live on the server record rather than in the stored JSON. */
const RECORD_FIELDS: Record<string, (keyof ServerRow)[]> = { rcon: ['rcon_port'] };
/** Those of a section whose schema has them: a game whose RCon listens on the game port has no rcon_port field. */
const recordFieldsOf = (schema: TObject, section: string) => (RECORD_FIELDS[section] ?? []).filter((f) => f in schema.properties);

@injectable()
export class ConfigService {
  private readonly checks = new WeakMap<TObject, TypeCheck<TObject>>();

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private generatorOf(adapter: AdapterDefinition): ConfigGenerator | undefined {
    return adapter.capabilities.config_generator;
  }

  private schemaOf(adapter: AdapterDefinition, section: string): TObject {
    const schema = this.generatorOf(adapter)?.sections[section];
    if (!schema)
      throw new ApiError('NOT_FOUND', `no config section ${JSON.stringify(section)} for game type ${adapter.identity.game_type}`);
    return schema;
  }

  private check(schema: TObject): TypeCheck<TObject> {
    let check = this.checks.get(schema);
    if (!check) this.checks.set(schema, (check = TypeCompiler.Compile(schema)));
    return check;
  }

  /**
   * A stored section as the adapter's current schema sees it, secrets in clear: defaults for fields an
   * adapter upgrade added, without fields it removed, plus the fields kept on the server record.
   */
  private sectionValues(adapter: AdapterDefinition, section: string, stored: SectionData, server: ServerRow): SectionData {
    const schema = this.schemaOf(adapter, section);
    const out = sectionDefaults(schema);
    for (const field of Object.keys(out)) if (field in stored) out[field] = stored[field];
    for (const field of recordFieldsOf(schema, section)) out[field] = server[field];
    return out;
  }

  private async rows(serverId: number) {
    return this.repos.configSections.forServer(serverId);
  }

  private present(adapter: AdapterDefinition, server: ServerRow, section: string, data: SectionData, version: number): SectionRead {
    const schema = this.schemaOf(adapter, section);
    const values = this.sectionValues(adapter, section, data, server);
    return {
      ...maskSection(schema, values),
      _meta: { config_version: version, schema_version: adapter.identity.schema_version, secrets_set: secretsSet(schema, values) },
    };
  }

  async readAll(serverId: number): Promise<Record<string, SectionRead>> {
    const server = await this.servers.row(serverId);
    const adapter = this.adapters.get(server.game_type);
    const rows = await this.rows(serverId);
    return Object.fromEntries(
      rows
        .filter((r) => this.generatorOf(adapter)?.sections[r.section])
        .map((r) => [r.section, this.present(adapter, server, r.section, r.data, r.config_version)]),
    );
  }

  async readSection(serverId: number, section: string): Promise<SectionRead> {
    const server = await this.servers.row(serverId);
    const adapter = this.adapters.get(server.game_type);
    this.schemaOf(adapter, section);
    const row = await this.repos.configSections.find(serverId, section);
    if (!row) throw new ApiError('NOT_FOUND', `server ${serverId} has no ${section} section`);
    return this.present(adapter, server, section, row.data, row.config_version);
  }

  async widgetHints(serverId: number): Promise<Record<string, Record<string, WidgetHint>>> {
    const adapter = await this.servers.adapterOf(serverId);
    const sections = this.generatorOf(adapter)?.sections ?? {};
    return Object.fromEntries(
      Object.entries(sections).map(([name, schema]) => [
        name,
        Object.fromEntries(Object.entries(schema.properties).flatMap(([field, s]) => (widgetHintOf(s) ? [[field, widgetHintOf(s)!]] : []))),
      ]),
    );
  }

  /** Every section with secrets in clear, for rendering the game's files. */
  async effectiveConfig(server: ServerRow): Promise<ConfigValues> {
    const adapter = this.adapters.get(server.game_type);
    const sections = this.generatorOf(adapter)?.sections ?? {};
    const rows = (await this.rows(server.id)).filter((r) => sections[r.section]);
    return Object.fromEntries(rows.map((r) => [r.section, this.sectionValues(adapter, r.section, r.data, server)]));
  }

  /**
   * What a start needs: the config checked against the adapter's schemas (400 `INVALID_CONFIG`), the
   * game's files written atomically (500 `CONFIG_WRITE_ERROR`), and the launch arguments built.
   */
  async prepareLaunch(server: ServerRow): Promise<{ config: ConfigValues; args: string[]; configVersion: number }> {
    const adapter = this.adapters.get(server.game_type);
    this.adapters.require(adapter, 'process_config'); // NOT_SUPPORTED before any config check
    const config = await this.effectiveConfig(server);
    for (const [section, schema] of Object.entries(this.generatorOf(adapter)?.sections ?? {})) {
      const values = config[section];
      if (!values) throw new ApiError('INVALID_CONFIG', `the ${section} section is missing`, { status: 400 });
      const check = this.check(schema);
      if (!check.Check(values))
        throw new ApiError('INVALID_CONFIG', `${section}: ${describeFailure('body', check.Errors(values))}`, { status: 400 });
      const problem = this.generatorOf(adapter)?.checkSection?.(section, values);
      if (problem) throw new ApiError('INVALID_CONFIG', `${section}: ${problem}`, { status: 400 });
    }
    const ctx = serverContext(server, this.settings.dataDir);
    const args = this.launchArguments(adapter, config, ctx);
    const generator = this.generatorOf(adapter);
    if (generator) await writeConfigFiles(generator.render(config, ctx));
    return { config, args, configVersion: await this.version(server.id) };
  }

  /** The server's config version: the sum of its sections' versions, which grows with every change to any. */
  async version(serverId: number): Promise<number> {
    return configVersionOf(await this.repos.configSections.forServer(serverId));
  }

  /** The command line the game gets, enabled mods included; 400 `INVALID_CONFIG` when it cannot be built. */
  private launchArguments(adapter: AdapterDefinition, config: ConfigValues, ctx: ServerContext): string[] {
    const modsAt = adapter.capabilities.mod_manager?.enabled;
    const mods = modsAt ? enabledModsOf(config[modsAt.section]?.[modsAt.field]) : [];
    try {
      return this.adapters.require(adapter, 'process_config').launchArguments(config, ctx, { mods });
    } catch (err) {
      throw new ApiError('INVALID_CONFIG', `launch arguments: ${(err as Error).message}`, { status: 400, cause: err });
    }
  }

  /** The server's current config rendered into the game's files, with what rendering needed. */
  private async rendered(serverId: number) {
    const { row, capability: generator, ctx } = await this.servers.withCapability(serverId, 'config_generator');
    const config = await this.effectiveConfig(row);
    return { adapter: this.adapters.get(row.game_type), generator, config, ctx, files: generator.render(config, ctx) };
  }

  /** The game's config files for the server's current config, secrets in clear. */
  async render(serverId: number): Promise<RenderedFile[]> {
    return (await this.rendered(serverId)).files;
  }

  /** One generated file an admin may download, by its label; 404 for any other name. */
  async download(serverId: number, filename: string): Promise<string> {
    const { generator, files } = await this.rendered(serverId);
    const file = files.find((f) => f.label === filename && (generator.downloadable ?? files.map((x) => x.label)).includes(f.label));
    if (!file) throw new ApiError('NOT_FOUND', `no downloadable config file ${JSON.stringify(filename.slice(0, 100))}`);
    return file.content;
  }

  /** The rendered files by label, and the launch arguments that carry mods by argument name. */
  async preview(serverId: number): Promise<Record<string, string>> {
    const { adapter, config, ctx, files } = await this.rendered(serverId);
    const preview = Object.fromEntries(files.map((f) => [f.label, f.content]));
    const shown = adapter.capabilities.mod_manager?.modArguments ?? [];
    if (shown.length && adapter.capabilities.process_config) {
      for (const arg of this.launchArguments(adapter, config, ctx)) {
        const split = arg.indexOf('=');
        if (split > 0 && shown.includes(arg.slice(0, split))) preview[arg.slice(0, split)] = arg.slice(split + 1);
      }
    }
    return preview;
  }

  /** Renders the server's config and writes the game's files atomically; returns what was written. */
  async writeFiles(serverId: number): Promise<RenderedFile[]> {
    const files = await this.render(serverId);
    await writeConfigFiles(files);
    return files;
  }

  private conflict(section: string, read: SectionRead): ApiError {
    const { _meta, ...fields } = read;
    return new ApiError(
      'CONFIG_VERSION_CONFLICT',
      `the ${section} section has changed since it was read; its current version is ${_meta.config_version}`,
      {
        extra: { current_config: fields, current_version: _meta.config_version },
      },
    );
  }

  /**
   * Partial update guarded by `config_version`: the write only lands if the version is still the one the
   * client read. Recorded in the audit trail as `actor`'s, with `detail` beside the fields changed.
   */
  async update(
    serverId: number,
    section: string,
    body: SectionData,
    actor: Actor,
    detail: Record<string, unknown> = {},
  ): Promise<SectionRead> {
    const server = await this.servers.row(serverId);
    const adapter = this.adapters.get(server.game_type);
    const schema = this.schemaOf(adapter, section);
    const { config_version: expected, _meta, ...changes } = body as SectionData & { config_version: number; _meta?: unknown };
    void _meta; // clients may send back what they read

    const row = await this.repos.configSections.find(serverId, section);
    if (!row) throw new ApiError('NOT_FOUND', `server ${serverId} has no ${section} section`);
    if (row.config_version !== expected) throw this.conflict(section, this.present(adapter, server, section, row.data, row.config_version));

    const current = this.sectionValues(adapter, section, row.data, server);
    const merged = { ...current, ...keepMaskedSecrets(schema, current, changes) };
    const check = this.check(schema);
    if (!check.Check(merged)) throw new ApiError('INVALID_CONFIG', describeFailure('body', check.Errors(merged)));
    const problem = this.generatorOf(adapter)?.checkSection?.(section, merged);
    if (problem) throw new ApiError('INVALID_CONFIG', problem);

    const recordFields = recordFieldsOf(schema, section);
    const stored = Object.fromEntries(Object.entries(merged).filter(([k]) => !recordFields.includes(k as keyof ServerRow)));
    const recordChanges = Object.fromEntries(recordFields.filter((f) => merged[f] !== server[f]).map((f) => [f, merged[f]]));
    const write = async () => {
      if ('rcon_port' in recordChanges) {
        await assertPortsFree(
          this.repos.servers,
          { game_port: server.game_port, rcon_port: recordChanges.rcon_port as number },
          server.node_id ?? '',
          { exceptServerId: serverId },
        );
      }
      const patch = Object.keys(recordChanges).length ? { ...recordChanges, updated_at: isoNow(this.clock) } : {};
      return this.audit.inTransaction(async (trx) => {
        if (!(await this.repos.configSections.updateVersioned(row, expected, stored, patch, trx))) return false;
        await this.audit.record(trx, {
          serverId,
          type: 'config_changed',
          actor,
          detail: { section, fields: Object.keys(changes), config_version: expected + 1, ...detail },
        });
        return true;
      });
    };
    const landed = Object.keys(recordChanges).length ? await this.servers.portLock.runExclusive(write) : await write();
    if (!landed) throw this.conflict(section, await this.readSection(serverId, section));
    Object.assign(server, recordChanges);
    return this.present(adapter, server, section, stored, expected + 1);
  }

  /** A backup's sections written back, each through `update` (checked, a new version, an audit entry). */
  async restoreSections(serverId: number, sections: Record<string, Record<string, unknown>>, actor: Actor): Promise<void> {
    for (const [section, values] of Object.entries(sections)) {
      const row = await this.repos.configSections.find(serverId, section);
      if (row) await this.update(serverId, section, { ...values, config_version: row.config_version }, actor, { restored: true });
    }
  }
}
