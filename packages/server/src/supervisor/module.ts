import { lifecycleEndpoints } from '@garrison/core';
import type { FeatureModule, NoRepositories } from '../modules/feature-module.js';
import { supervisorSettings, type SupervisorSettings } from './settings.js';
import { BanService } from '../bans/service.js';
import { OwnFolders } from '../servers/own-folders.js';
import { Supervisor } from './supervisor.js';
import { adoptAll } from './adoption.js';
import { ProcessWatchers } from './watchers.js';
import { ServerStates } from './status.js';
import { HeadlessClients } from './headless.js';
import { AutoRestarts } from './auto-restart.js';
import { ReadinessProbe } from './readiness.js';
import { lifecycleRoutes } from './routes.js';

export const supervisorModule: FeatureModule<NoRepositories, SupervisorSettings> = {
  name: 'supervisor',
  settings: supervisorSettings,
  // Adoption comes last among these: the watchers (logs, metrics, players) hear of every game adopted, a
  // crashed server restarted at once finds its own folders ready (servers), its bans written (bans), and
  // the audit trail, its webhooks and Prometheus hear of the restart.
  needs: ['processes', 'logs', 'metrics', 'players', 'bans', 'servers', 'rcon', 'audit', 'webhooks', 'prometheus'],
  services: [ProcessWatchers, ServerStates, HeadlessClients, Supervisor, AutoRestarts, ReadinessProbe],
  // Its table's process list and audit trail are the processes' and audit modules'.
  endpoints: [
    lifecycleEndpoints.startServer,
    lifecycleEndpoints.stopServer,
    lifecycleEndpoints.restartServer,
    lifecycleEndpoints.killServer,
  ],
  routes: (routes, c) => lifecycleRoutes(routes, c.resolve(Supervisor)),
  parts: (c) => {
    const supervisor = c.resolve(Supervisor);
    const bans = c.resolve(BanService);
    supervisor.beforeLaunch((id) => bans.beforeLaunch(id));
    const ownFolders = c.resolve(OwnFolders);
    supervisor.beforeFiles((id) => ownFolders.separateLocked(id));
    return [['supervisor', { start: () => adoptAll(supervisor.adoption), stop: () => supervisor.close() }]];
  },
};
