import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { LogFileService } from './service.js';

export function logFileRoutes(routes: RouteTable, files: LogFileService): void {
  routes.implement(endpoints.listLogFiles, async ({ params }) => files.list(params.server_id));
  routes.implement(endpoints.downloadLogFile, async ({ params, ctx }) => {
    const stream = await files.open(params.server_id, params.filename);
    ctx.attachment(params.filename, { type: 'inline' });
    ctx.type = 'text/plain; charset=utf-8';
    return stream as unknown as string; // streamed by Koa, never read whole into memory
  });
  routes.implement(endpoints.deleteLogFile, async ({ params, actor }) => {
    await files.delete(params.server_id, params.filename, actor);
    return { message: `deleted ${params.filename}` };
  });
}
