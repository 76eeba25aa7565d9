// The modules' services are tsyringe's: its decorators need the metadata polyfill before any is loaded.
import 'reflect-metadata';
import { jobsModule } from './jobs/module.js';
import { clusterModule } from './cluster/module.js';
import { nodesModule } from './nodes/module.js';
import { auditModule } from './audit/module.js';
import { prometheusModule } from './prometheus/module.js';
import { webhooksModule } from './webhooks/module.js';
import { rconModule } from './rcon/module.js';
import { processesModule } from './processes/module.js';
import { logsModule } from './logs/module.js';
import { metricsModule } from './metrics/module.js';
import { playersModule } from './players/module.js';
import { bansModule } from './bans/module.js';
import { serversModule } from './servers/module.js';
import { supervisorModule } from './supervisor/module.js';
import { backupsModule } from './backups/module.js';
import { schedulesModule } from './schedules/module.js';
import { authModule } from './auth/module.js';
import { configModule } from './config/module.js';
import { gamesModule } from './games/module.js';
import { systemModule } from './system/module.js';
import { logFilesModule } from './logfiles/module.js';
import { missionsModule } from './missions/module.js';
import { modsModule } from './mods/module.js';
import { importModule } from './import/module.js';
import { steamModule } from './steam/module.js';
import { workshopModule } from './steam/workshop/module.js';
import { backgroundJobsModule } from './background-jobs/module.js';

/**
 * Every feature of the service, each its folder's module: a new feature is its import and one entry
 * here. The order of this list matters only where `needs` leave it open (docs/architecture.md).
 */
export const FEATURES = [
  jobsModule,
  clusterModule,
  nodesModule,
  auditModule,
  prometheusModule,
  webhooksModule,
  backgroundJobsModule,
  rconModule,
  processesModule,
  logsModule,
  metricsModule,
  playersModule,
  bansModule,
  serversModule,
  supervisorModule,
  backupsModule,
  schedulesModule,
  authModule,
  configModule,
  gamesModule,
  systemModule,
  logFilesModule,
  missionsModule,
  modsModule,
  importModule,
  steamModule,
  workshopModule,
] as const;
