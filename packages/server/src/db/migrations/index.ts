import type { Knex } from 'knex';
import * as initial from './001_initial.js';
import * as supervision from './002_supervision.js';
import * as liveData from './003_live_data.js';
import * as playersBans from './004_players_bans.js';
import * as sharedBanFile from './005_shared_ban_file.js';
import * as processesActors from './006_processes_actors.js';
import * as userTokenGeneration from './007_user_token_generation.js';
import * as serverGlance from './008_server_glance.js';
import * as schedules from './009_schedules.js';
import * as backups from './010_backups.js';
import * as nodes from './011_nodes.js';
import * as webhooks from './012_webhooks.js';
import * as apiKeys from './013_api_keys.js';
import * as sessions from './014_sessions.js';
import * as twoFactor from './015_two_factor.js';
import * as secondStepLimits from './016_second_step_limits.js';
import * as clusterNonces from './017_cluster_nonces.js';
import * as installationKeys from './018_installation_keys.js';
import * as scheduleActionTime from './019_schedule_action_time.js';
import * as globalAudit from './020_global_audit.js';
import * as processStateOnProcesses from './021_process_state_on_processes.js';
import * as nodeNames from './022_node_names.js';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** The base set: the schema as it stood before features brought their own. knex records these names. */
const base: [string, Migration][] = [
  ['001_initial', initial],
  ['002_supervision', supervision],
  ['003_live_data', liveData],
  ['004_players_bans', playersBans],
  ['005_shared_ban_file', sharedBanFile],
  ['006_processes_actors', processesActors],
  ['007_user_token_generation', userTokenGeneration],
  ['008_server_glance', serverGlance],
  ['009_schedules', schedules],
  ['010_backups', backups],
  ['011_nodes', nodes],
  ['012_webhooks', webhooks],
  ['013_api_keys', apiKeys],
  ['014_sessions', sessions],
  ['015_two_factor', twoFactor],
  ['016_second_step_limits', secondStepLimits],
  ['017_cluster_nonces', clusterNonces],
  ['018_installation_keys', installationKeys],
  ['019_schedule_action_time', scheduleActionTime],
  ['020_global_audit', globalAudit],
  ['021_process_state_on_processes', processStateOnProcesses],
  ['022_node_names', nodeNames],
];

/**
 * The base migrations, then those the feature modules bring. Migrations are imported, not globbed from
 * disk, so they run the same from source and from dist.
 */
export function migrationSource(fromModules: readonly [string, Migration][] = []): Knex.MigrationSource<[string, Migration]> {
  const all = [...base, ...fromModules];
  return {
    getMigrations: async () => all,
    getMigrationName: ([name]) => name,
    getMigration: async ([, migration]) => migration,
  };
}
