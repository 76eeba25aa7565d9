import { endpoints, sectionDefaults, type AdapterDefinition } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { AdapterRegistry } from '../plugins/registry.js';

export function gameRoutes(routes: RouteTable, adapters: AdapterRegistry): void {
  const summary = (a: AdapterDefinition) => ({
    game_type: a.identity.game_type,
    display_name: a.identity.display_name,
    version: a.identity.version,
    capabilities: adapters.capabilitiesOf(a),
  });
  const sections = (a: AdapterDefinition) => a.capabilities.config_generator?.sections ?? {};

  routes.implement(endpoints.listGames, async () => adapters.list().map(summary));
  routes.implement(endpoints.getGame, async ({ params }) => {
    const adapter = adapters.get(params.game_type);
    return {
      ...summary(adapter),
      schema_version: adapter.identity.schema_version,
      config_sections: Object.keys(sections(adapter)),
      allowed_executables: [...(adapter.capabilities.process_config?.allowedExecutables ?? [])],
    };
  });
  routes.implement(endpoints.getGameCommands, async ({ params }) => [
    ...(adapters.get(params.game_type).capabilities.remote_admin?.knownCommands ?? []),
  ]);
  routes.implement(endpoints.getGameConfigSchema, async ({ params }) => {
    // TypeBox objects are JSON Schema already; the round trip drops TypeBox's symbol keys.
    return JSON.parse(JSON.stringify(sections(adapters.get(params.game_type)))) as Record<string, object>;
  });
  routes.implement(endpoints.getGameDefaults, async ({ params }) =>
    Object.fromEntries(Object.entries(sections(adapters.get(params.game_type))).map(([name, s]) => [name, sectionDefaults(s)])),
  );
}
