import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ConfigService } from './service.js';

export function configRoutes(routes: RouteTable, config: ConfigService): void {
  // `schema` and `preview` are registered before `{section}` so that they are never taken for section names.
  routes.implement(endpoints.getConfig, async ({ params }) => config.readAll(params.server_id));
  routes.implement(endpoints.getConfigSchema, async ({ params }) => config.widgetHints(params.server_id));
  routes.implement(endpoints.previewConfig, async ({ params }) => config.preview(params.server_id));
  routes.implement(endpoints.downloadConfigFile, async ({ params, ctx }) => {
    const content = await config.download(params.server_id, params.filename);
    ctx.attachment(params.filename);
    ctx.type = 'text/plain; charset=utf-8';
    return content;
  });
  routes.implement(endpoints.getConfigSection, async ({ params }) => config.readSection(params.server_id, params.section));
  routes.implement(endpoints.updateConfigSection, async ({ params, body, actor }) =>
    config.update(params.server_id, params.section, body, actor),
  );
}
