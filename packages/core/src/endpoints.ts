import type { Scope } from './schemas/scopes.js';
import { accountEndpoints, signInEndpoints, userEndpoints } from './schemas/auth.endpoints.js';
import { twoFactorEndpoints } from './schemas/two-factor.endpoints.js';
import { apiKeyEndpoints } from './schemas/api-keys.endpoints.js';
import { gameEndpoints } from './schemas/games.endpoints.js';
import { systemEndpoints } from './schemas/system.endpoints.js';
import { webhookEndpoints } from './schemas/webhooks.endpoints.js';
import { nodeEndpoints } from './schemas/nodes.endpoints.js';
import { serverEndpoints } from './schemas/servers.endpoints.js';
import { lifecycleEndpoints } from './schemas/lifecycle.endpoints.js';
import { liveEndpoints } from './schemas/live.endpoints.js';
import { missionEndpoints, modEndpoints } from './schemas/missions.endpoints.js';
import { scheduleEndpoints } from './schemas/schedules.endpoints.js';
import { backupEndpoints } from './schemas/backups.endpoints.js';
import { playerEndpoints } from './schemas/players.endpoints.js';
import { configEndpoints } from './schemas/config.endpoints.js';
import { rconEndpoints } from './schemas/rcon.endpoints.js';
import { auditEndpoints } from './schemas/audit.endpoints.js';
import { jobEndpoints } from './schemas/jobs.endpoints.js';
import { steamEndpoints } from './schemas/steam.endpoints.js';
import { workshopEndpoints } from './schemas/workshop.endpoints.js';

/**
 * The HTTP contract, one entry per endpoint: each feature's table, kept beside its schemas
 * (`schemas/<feature>.endpoints.ts`). The order is the one the documents list endpoints in
 * (docs/security.md's scopes table): a new feature's table goes where its endpoints should be read.
 */
export const endpoints = {
  ...signInEndpoints,
  ...twoFactorEndpoints,
  ...accountEndpoints,
  ...apiKeyEndpoints,
  ...userEndpoints,
  ...gameEndpoints,
  ...systemEndpoints,
  ...webhookEndpoints,
  ...nodeEndpoints,
  ...serverEndpoints,
  ...lifecycleEndpoints,
  ...liveEndpoints,
  ...missionEndpoints,
  ...modEndpoints,
  ...workshopEndpoints,
  ...scheduleEndpoints,
  ...backupEndpoints,
  ...jobEndpoints,
  ...steamEndpoints,
  ...playerEndpoints,
  ...configEndpoints,
  ...rconEndpoints,
  ...auditEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;

/** The scope of each endpoint, as its table names it. */
export const ENDPOINT_SCOPES = Object.fromEntries(Object.entries(endpoints).map(([id, endpoint]) => [id, endpoint.scope])) as Record<
  EndpointId,
  Scope
>;
