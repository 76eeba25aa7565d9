import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { BackupService } from './service.js';
import type { BackupRestore } from './restore.js';

export function backupRoutes(routes: RouteTable, backups: BackupService, restore: BackupRestore): void {
  routes.implement(endpoints.listBackups, async ({ params }) => backups.list(params.server_id));
  routes.implement(
    endpoints.createBackup,
    async ({ params, body, actor }) => (await backups.create(params.server_id, body ?? {}, actor)).backup,
  );
  routes.implement(endpoints.getBackup, async ({ params }) => backups.get(params.server_id, params.backup_id));
  routes.implement(endpoints.downloadBackup, async ({ params, ctx }) => {
    const archive = await backups.download(params.server_id, params.backup_id);
    ctx.attachment(archive.filename);
    ctx.type = 'application/gzip';
    ctx.length = archive.size;
    return archive.stream() as unknown as string; // streamed by Koa, never read whole into memory
  });
  routes.implement(endpoints.updateBackup, async ({ params, body, actor }) =>
    backups.update(params.server_id, params.backup_id, body ?? {}, actor),
  );
  routes.implement(endpoints.restoreBackup, async ({ params, actor }) => restore.restore(params.server_id, params.backup_id, actor));
  routes.implement(endpoints.deleteBackup, async ({ params, actor }) => {
    await backups.delete(params.server_id, params.backup_id, actor);
    return { message: `backup ${params.backup_id} deleted` };
  });
}
