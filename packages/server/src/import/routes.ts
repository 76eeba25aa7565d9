import { endpoints } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { ImportService } from './service.js';

export function importRoutes(routes: RouteTable, imports: ImportService): void {
  routes.implement(endpoints.importServer, async ({ body, actor }) => imports.import(body, actor));
}
