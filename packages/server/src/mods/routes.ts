import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ModService } from './service.js';
import type { ModPresets } from './presets.js';

export function modRoutes(routes: RouteTable, mods: ModService, presets: ModPresets): void {
  routes.implement(endpoints.listMods, async ({ params }) => mods.list(params.server_id));
  routes.implement(endpoints.setEnabledMods, async ({ params, body, actor }) => {
    const enabled = await mods.setEnabled(params.server_id, body.mods, actor);
    return { message: `${enabled.length} mods enabled; they load at the next start`, enabled_mods: enabled };
  });
  routes.implement(endpoints.importModPreset, async ({ params, query, ctx, actor }) =>
    presets.compare(params.server_id, await presets.receive(params.server_id, ctx.req), query.apply === true, actor),
  );
  routes.implement(endpoints.exportModPreset, async ({ params, ctx }) => {
    const preset = await presets.export(params.server_id);
    ctx.attachment(preset.filename);
    ctx.type = `${preset.mediaType}; charset=utf-8`;
    return preset.content;
  });
}
