import type { Knex } from 'knex';
import { FEATURES } from '../../features.js';
import { bindModuleRepositories } from '../../modules/assembly.js';
import type { FeatureModule, RepositoriesOf } from '../../modules/feature-module.js';

/**
 * Data access, one repository per table, each declared by the feature module it belongs to and bound
 * here to one connection (several services can share a process: tests do; a transaction binds its own).
 * No query is written anywhere else.
 */
export function bindRepositories(knex: Knex, modules: readonly FeatureModule[] = FEATURES): Repositories {
  return bindModuleRepositories(knex, modules) as Repositories;
}

/** Every repository the service's features bring, by name. */
export type Repositories = RepositoriesOf<typeof FEATURES>;
export type { UserRow } from './users.js';
export type { ServerRow, ListRow } from './servers.js';
export type { ProcessRow, ProcessKey } from './processes.js';
