import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import {
  ApiError,
  isSensitive,
  TypeCompiler,
  sectionDefaults,
  type Actor,
  type AdapterDefinition,
  type ConfigValues,
  type ImportDraft,
  type ImportPlan,
  type ImportServerRequest,
  type ServerImporter,
} from '@garrison/core';
import { ImportFiles } from './import-files.js';
import { TOKENS } from '../tokens.js';
import type { DataSettings } from '../db/settings.js';
import type { Repositories } from '../db/repositories/index.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { serverContext } from '../servers/context.js';
import { assertPortsFree, recordPorts, remoteAdminOnGamePort, type ServerPorts } from '../servers/ports.js';
import { hostPortsInUse } from '../supervisor/host-ports.js';
import { sharingWarning, sharingWith } from '../servers/installation.js';
import { isWithin, realPathOf } from '../servers/game-roots.js';
import { maskSections } from '../config/masking.js';
import { BanService } from '../bans/service.js';
import { banFilesOf } from '../bans/ban-files.js';
import { AuditService } from '../audit/service.js';

/**
 * Adopts a server that ran without Garrison: the game's adapter reads its files (inside the game folder
 * only), this checks what it read against the sections as a whole, and either answers the plan (a dry
 * run) or makes the server, takes its ban file over as it is, and answers the same plan. Nothing is
 * left half-made: a failure after the record exists removes it.
 */
@injectable()
export class ImportService {
  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(BanService) private readonly bans: BanService,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  async import(request: ImportServerRequest, actor: Actor): Promise<ImportPlan> {
    const { adapter, importer } = this.importerFor(request.exe_path);
    this.servers.gameRoots.assertExecutable(request.exe_path);
    const others = await this.serverFolders();
    const root = dirname(request.exe_path.replace(/\\/g, '/'));
    const files = new ImportFiles(root, this.guard(others, realPathOf(root)));
    // Another server of this node runs from this installation: its files may hold that server's
    // passwords, which neither the plan nor the server made may carry. The rest is imported, said.
    const sharing = sharingWith(
      { exe_path: request.exe_path, node_id: this.nodeId },
      await this.repos.servers.installations([this.nodeId]),
    );
    const draft = await importer.read(request, files);
    const secretsLeft = sharing.length ? withoutSecrets(adapter, draft) : [];
    const sections = this.checkedSections(adapter, draft);
    const game_port = request.game_port ?? draft.game_port;
    if (game_port === null)
      throw new ApiError('VALIDATION_ERROR', "field 'command_line': the game port could not be read; give it as -port= or as game_port");
    const { rcon_port } = recordPorts(adapter, game_port, request.rcon_port ?? draft.rcon_port);
    const server = {
      name: (request.name ?? draft.name ?? basename(files.root)).slice(0, 100),
      game_type: adapter.identity.game_type,
      exe_path: request.exe_path,
      game_port,
      rcon_port,
    };
    const warnings = [
      ...portsGiven(request, draft),
      ...(await this.portConflicts(server, remoteAdminOnGamePort(adapter), request.dry_run === true)),
      ...draft.warnings,
      ...(sharing.length ? [sharingWarning(adapter, request.exe_path, sharing)] : []),
      ...(secretsLeft.length
        ? [
            `passwords not taken from the files (${secretsLeft.join(', ')}): they may be another server's on this ` +
              `installation; new ones are made, change them in the config`,
          ]
        : []),
    ];
    const inFolder = (file: string) => (file.startsWith(`${files.root}/`) ? file.slice(files.root.length + 1) : file);
    const plan = (made: Record<string, unknown> | null): ImportPlan => ({
      dry_run: made === null,
      server: (made ?? server) as ImportPlan['server'],
      files: draft.files,
      sections: maskSections(adapter.capabilities.config_generator!.sections, draft.sections),
      rotation: draft.rotation,
      mods: draft.mods,
      // The contract's one file: the first the game read (a game with a file per kind says the others in its warnings).
      bans: { count: draft.bans.count, file: draft.bans.files[0]?.file ?? null },
      missions: draft.missions,
      // Where in the game folder: the report is read beside the folder's own listing.
      unknown: draft.unknown.map((u) => ({ ...u, file: inFolder(u.file) })),
      refused: draft.refused.map((r) => ({ ...r, file: inFolder(r.file) })),
      warnings,
    });
    if (request.dry_run) return plan(null);

    // Here: the files were read on this node's host.
    const made = await this.servers.create(
      { name: server.name, exe_path: server.exe_path, game_port, rcon_port, game_type: server.game_type, node_id: this.nodeId },
      actor,
      sections,
    );
    try {
      await this.takeOverBanFiles(adapter, made.id, draft.bans.files);
    } catch (err) {
      const undone = await this.servers.delete(made.id, actor).then(
        () => 'nothing was imported',
        (undoErr: unknown) => `server ${made.id} was made and could not be deleted again (${(undoErr as Error).message}): delete it`,
      );
      throw new ApiError(
        'VALIDATION_ERROR',
        `the ban files (${draft.bans.files.map((f) => f.file).join(', ')}) could not be taken over: ${(err as Error).message}; ${undone}`,
        { cause: err },
      );
    }
    // The server's record was written, with its `server_created` entry, in a transaction of its own: this entry adds what the import read.
    await this.audit.recordAlone({
      serverId: made.id,
      type: 'server_imported',
      actor,
      detail: { game_folder: files.root, unknown: draft.unknown.length, refused: draft.refused.length, bans: draft.bans.count },
    });
    return plan(made);
  }

  /**
   * Ports another server of this node uses, or another process of this host holds (the old server not
   * stopped, another program): 409 `PORT_IN_USE` for the import, a line of the plan for a dry run, which
   * is shown whatever it finds; the ports can then be given in the request.
   */
  private async portConflicts(server: ServerPorts, shared: boolean, dryRun: boolean): Promise<string[]> {
    const found: string[] = [];
    try {
      await assertPortsFree(this.repos.servers, server, this.nodeId, { shared });
    } catch (err) {
      if (!(err instanceof ApiError) || !dryRun) throw err;
      found.push(`PORT_IN_USE: ${err.message}; give other ports (game_port, rcon_port) to import`);
    }
    const held = await hostPortsInUse(server);
    if (held.length && !dryRun)
      throw new ApiError(
        'PORT_IN_USE',
        `${held.join(' and ')} ${held.length > 1 ? 'are' : 'is'} in use on this host by another process (the old server still ` +
          `running?): stop it, or give other ports (game_port, rcon_port)`,
      );
    return held.length
      ? [
          ...found,
          `PORT_IN_USE: ${held.join(' and ')} ${held.length > 1 ? 'are' : 'is'} in use on this host by another process (the ` +
            `old server still running?): stop it before the import, or give other ports (game_port, rcon_port)`,
        ]
      : found;
  }

  /**
   * What an import may read besides being in the game folder: inside the game roots, outside the
   * service's own folders, and outside the folder of every server this node runs, whose files hold that
   * server's passwords (a plan, and the server it makes, would hand them to whoever imports).
   */
  private guard(others: { id: number; name: string; folder: string }[], root: string): (path: string) => string | null {
    return (path) => {
      const problem = this.servers.gameRoots.problem(path);
      if (problem) return problem;
      // The installation being imported may be another server's too (its passwords are then left out);
      // a file of another installation is not this import's to read.
      const owner = others.find((o) => o.folder !== root && isWithin(path, o.folder));
      return owner ? `${path} is in the folder of server ${owner.id} (${owner.name})` : null;
    };
  }

  private async serverFolders(): Promise<{ id: number; name: string; folder: string }[]> {
    const rows = await this.repos.servers.all(this.nodeId);
    return rows
      .filter((r) => !/^[A-Za-z]:[\\/]/.test(r.exe_path))
      .map((r) => ({ id: r.id, name: r.name, folder: realPathOf(dirname(r.exe_path)) }));
  }

  /** The adapter whose executables include this one's name, and its importer. */
  private importerFor(exePath: string): { adapter: AdapterDefinition; importer: ServerImporter } {
    const name = basename(exePath.replace(/\\/g, '/'));
    const adapter = this.adapters.list().find((a) => a.capabilities.process_config?.allowedExecutables.includes(name));
    if (!adapter) {
      const allowed = this.adapters.list().flatMap((a) => a.capabilities.process_config?.allowedExecutables ?? []);
      throw new ApiError(
        'EXE_NOT_ALLOWED',
        `executable ${JSON.stringify(name)} is not one Garrison runs; allowed: ${allowed.join(', ') || 'none'}`,
      );
    }
    const importer = adapter.capabilities.config_generator?.importer;
    if (!importer) throw new ApiError('NOT_SUPPORTED', `${adapter.identity.game_type} cannot import an existing installation`);
    return { adapter, importer };
  }

  /**
   * Each section as it will be stored (defaults under what was read), checked whole: the adapter's
   * importer checked each value against its field, so a section that still fails is the extra lines
   * clashing with each other, which are then left out and said.
   */
  private checkedSections(adapter: AdapterDefinition, draft: ImportDraft): ConfigValues {
    const generator = adapter.capabilities.config_generator!;
    const out: ConfigValues = {};
    for (const [section, values] of Object.entries(draft.sections)) {
      const schema = generator.sections[section];
      if (!schema) continue;
      const merged = { ...sectionDefaults(schema), ...values };
      const problem = TypeCompiler.Compile(schema).Errors(merged).First();
      const extra = generator.checkSection?.(section, merged) ?? null;
      if (!problem && !extra) {
        out[section] = values;
        continue;
      }
      const { extra_lines: lines, ...rest } = values;
      if (lines !== undefined)
        draft.warnings.push(
          `the ${section} section's extra lines were left out: ${extra ?? problem?.message}; they are listed under unknown`,
        );
      out[section] = rest;
      draft.sections[section] = rest;
    }
    return out;
  }

  /**
   * The installation's ban files, each copied as it is (every line, every byte) to where the game will
   * read the server's ban file of its kind under Garrison (a server sharing the installation has files of
   * its own names); the ban-file pass then takes each ban over as `source: file`.
   */
  private async takeOverBanFiles(adapter: AdapterDefinition, serverId: number, found: ImportDraft['bans']['files']): Promise<void> {
    if (!found.length || !adapter.capabilities.ban_manager) return;
    for (const { path: to, kinds } of banFilesOf(adapter, serverContext(await this.servers.row(serverId), this.settings.dataDir))) {
      const from = found.find((f) => kinds.has(f.kind))?.file;
      // A game that keeps its ban files in its own folder reads them there already.
      if (!from || resolve(from) === resolve(to)) continue;
      await mkdir(dirname(to), { recursive: true });
      const temp = `${to}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await copyFile(from, temp);
        await rename(temp, to);
      } finally {
        await rm(temp, { force: true });
      }
    }
    await this.bans.sync(serverId);
  }
}

/** The ports given in the request where the files say others: said, so that the plan shows both. */
function portsGiven(request: ImportServerRequest, draft: ImportDraft): string[] {
  const said: string[] = [];
  if (request.game_port !== undefined && draft.game_port !== null && request.game_port !== draft.game_port)
    said.push(`game port ${request.game_port} as given, instead of ${draft.game_port} of the command line`);
  if (request.rcon_port !== undefined && draft.rcon_port !== null && request.rcon_port !== draft.rcon_port)
    said.push(
      `RCon port ${request.rcon_port} as given, instead of ${draft.rcon_port} of the installation's files (they are written ` +
        `with the new one)`,
    );
  return said;
}

/** Drops every sensitive value the files gave (the server made gets generated ones); answers the fields dropped. */
function withoutSecrets(adapter: AdapterDefinition, draft: ImportDraft): string[] {
  const dropped: string[] = [];
  const schemas = adapter.capabilities.config_generator?.sections ?? {};
  for (const [section, values] of Object.entries(draft.sections)) {
    for (const [name, field] of Object.entries(schemas[section]?.properties ?? {})) {
      if (isSensitive(field) && values[name] !== undefined && values[name] !== '') {
        delete values[name];
        dropped.push(`${section}.${name}`);
      }
    }
  }
  return dropped;
}
