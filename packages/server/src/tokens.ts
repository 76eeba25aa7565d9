import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import type { Settings } from './settings.js';
import type { Repositories } from './db/repositories/index.js';
import type { AdapterRegistry } from './plugins/registry.js';
import type { InProcessEventBus } from './events/bus.js';
import type { Clock } from './jobs/clock.js';
import type { JobRunner } from './jobs/runner.js';
import type { Database } from './db/connection.js';
import type { FeatureModule } from './modules/feature-module.js';

/** Injection tokens: every constructor parameter is injected by one of these, never by reflected type. */
export const TOKENS = {
  Settings: Symbol('Settings') as InjectionToken<Settings>,
  Logger: Symbol('Logger') as InjectionToken<Logger>,
  Repositories: Symbol('Repositories') as InjectionToken<Repositories>,
  Adapters: Symbol('Adapters') as InjectionToken<AdapterRegistry>,
  Events: Symbol('Events') as InjectionToken<InProcessEventBus>,
  Clock: Symbol('Clock') as InjectionToken<Clock>,
  Jobs: Symbol('Jobs') as InjectionToken<JobRunner>,
  /** This instance's id: the owner of the processes it runs. */
  NodeId: Symbol('NodeId') as InjectionToken<string>,
  /** The open database, for what only the database's own API does (its online backup). */
  Database: Symbol('Database') as InjectionToken<Database>,
  /** The service's feature modules, in start order. */
  Modules: Symbol('Modules') as InjectionToken<readonly FeatureModule[]>,
};
