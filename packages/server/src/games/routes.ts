import {
  endpoints,
  remoteAdminOperations,
  sectionDefaults,
  type AdapterDefinition,
  type GamePresentation,
  type MissionManager,
} from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AdapterRegistry } from '../plugins/registry.js';

/** TypeBox objects are JSON Schema already; the round trip drops TypeBox's symbol keys. */
const jsonSchema = <T>(schema: T) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/** What the console needs of a game's missions: what a file ends in, what one is called, the options of a rotation entry. */
function missionsOf(missions: MissionManager | undefined) {
  if (!missions) return null;
  return {
    extension: missions.missionExtension,
    label: missions.missionLabel ?? 'Mission',
    // Read defensively: an adapter of an older contract may lack them, and then a rotation entry has no options.
    rotation_options: missions.rotationOptions?.schema ? jsonSchema(missions.rotationOptions.schema) : { type: 'object', properties: {} },
  };
}

/** The adapter's words and examples under the API's names; those it does not give are left out. */
function presentationOf(p: GamePresentation) {
  const named = {
    example_exe_path: p.exampleExePath,
    backup_contents: p.backupContents,
    import_files: p.importFiles,
    example_command_line: p.exampleCommandLine,
  };
  return Object.fromEntries(Object.entries(named).filter(([, v]) => typeof v === 'string')) as Partial<Record<keyof typeof named, string>>;
}

/**
 * The games the service runs, as the console and other clients read them: everything game-specific
 * they show (identity kinds, mission files, rotation options, words and examples) comes from here.
 */
export function gameRoutes(routes: RouteTable, adapters: AdapterRegistry, defaultGameType: string): void {
  const summary = (a: AdapterDefinition) => ({
    game_type: a.identity.game_type,
    display_name: a.identity.display_name,
    version: a.identity.version,
    capabilities: adapters.capabilitiesOf(a),
    default: a.identity.game_type === defaultGameType,
  });
  const sections = (a: AdapterDefinition) => a.capabilities.config_generator?.sections ?? {};

  routes.implement(endpoints.listGames, async () => adapters.list().map(summary));
  routes.implement(endpoints.getGame, async ({ params }) => {
    const adapter = adapters.get(params.game_type);
    const remote = adapter.capabilities.remote_admin;
    return {
      ...summary(adapter),
      schema_version: adapter.identity.schema_version,
      config_sections: Object.keys(sections(adapter)),
      allowed_executables: [...(adapter.capabilities.process_config?.allowedExecutables ?? [])],
      identity_kinds: (adapter.identities ?? []).map((k) => ({
        kind: k.kind,
        label: k.label,
        example: k.example,
        address: k.address === true,
        ...(k.pattern === undefined ? {} : { pattern: k.pattern }),
      })),
      remote_admin_operations: remote ? remoteAdminOperations(remote) : [],
      remote_admin_port: remote ? (remote.port ?? 'own') : null,
      missions: missionsOf(adapter.capabilities.mission_manager),
      presentation: presentationOf(adapter.presentation ?? {}),
      steam: adapter.steam ?? null,
    };
  });
  routes.implement(endpoints.getGameCommands, async ({ params }) => [
    ...(adapters.get(params.game_type).capabilities.remote_admin?.knownCommands ?? []),
  ]);
  routes.implement(endpoints.getGameConfigSchema, async ({ params }) => {
    return jsonSchema(sections(adapters.get(params.game_type))) as Record<string, object>;
  });
  routes.implement(endpoints.getGameDefaults, async ({ params }) =>
    Object.fromEntries(Object.entries(sections(adapters.get(params.game_type))).map(([name, s]) => [name, sectionDefaults(s)])),
  );
}
