import { serverEndpoints } from '@garrison/core';
import type { FeatureModule } from '../modules/feature-module.js';
import { serverSettings, type ServerSettings } from './settings.js';
import { ServerRepository } from '../db/repositories/servers.js';
import { Forwarder } from '../cluster/forwarding.js';
import { ServerLocks } from './locks.js';
import { ServerGlance } from './glance.js';
import { ServerService } from './service.js';
import { OwnFolders } from './own-folders.js';
import { serverRoutes } from './routes.js';

const repositories = { servers: ServerRepository };

export const serversModule: FeatureModule<typeof repositories, ServerSettings> = {
  name: 'servers',
  settings: serverSettings,
  needs: ['jobs', 'audit'],
  repositories,
  services: [ServerLocks, ServerGlance, ServerService, OwnFolders],
  // Its table's import is the import module's.
  endpoints: [
    serverEndpoints.listServers,
    serverEndpoints.createServer,
    serverEndpoints.getServer,
    serverEndpoints.updateServer,
    serverEndpoints.deleteServer,
  ],
  routes: (routes, c) => serverRoutes(routes, c.resolve(ServerService), c.resolve(Forwarder)),
  parts: (c) => [
    ['server glance', c.resolve(ServerGlance)],
    ['own folders', c.resolve(OwnFolders)],
  ],
};
