import { steamEndpoints } from '@garrison/core';
import type { RouteTable } from '../../http/route-table.js';
import type { SteamAccountService } from './service.js';

export function steamAccountRoutes(routes: RouteTable, accounts: SteamAccountService): void {
  routes.implement(steamEndpoints.getSteamAccount, async () => accounts.view());
  routes.implement(steamEndpoints.setSteamAccount, async ({ body, actor }) => accounts.set(body, actor));
  routes.implement(steamEndpoints.deleteSteamAccount, async ({ actor }) => {
    await accounts.remove(actor);
    return { message: 'the Steam account is forgotten' };
  });
}
