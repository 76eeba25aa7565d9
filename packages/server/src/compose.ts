import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import { TOKENS } from './tokens.js';
import type { Settings } from './settings.js';
import type { Database } from './db/connection.js';
import type { AdapterRegistry } from './plugins/registry.js';
import { InProcessEventBus } from './events/bus.js';
import type { Clock } from './jobs/clock.js';
import { JobRunner } from './jobs/runner.js';
import type { Lifecycle } from './lifecycle/lifecycle.js';
import { DatabaseAccess } from './db/access.js';
import { FEATURES } from './features.js';
import type { FeatureModule } from './modules/feature-module.js';
import { startOrder } from './modules/start-order.js';
import { moduleParts, registerModules } from './modules/assembly.js';

/** The service's features and any given besides (a test's, a deployment's), in the order they start. */
export function featureModules(extra: readonly FeatureModule[] = []): FeatureModule[] {
  return startOrder<FeatureModule>([...FEATURES, ...extra]);
}

/**
 * The service's parts in one container: the values every part is built from, by token; the modules'
 * repositories, bound to the database; their services, built on first use, each once, from their
 * declared dependencies.
 */
export function compose(
  settings: Settings,
  logger: Logger,
  db: Database,
  adapters: AdapterRegistry,
  clock: Clock,
  nodeId: string,
  modules: readonly FeatureModule[] = featureModules(),
): DependencyContainer {
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Settings, { useValue: settings });
  container.register(TOKENS.Logger, { useValue: logger });
  container.register(TOKENS.Adapters, { useValue: adapters });
  container.register(TOKENS.Clock, { useValue: clock });
  container.register(TOKENS.NodeId, { useValue: nodeId });
  container.register(TOKENS.Database, { useValue: db });
  container.register(TOKENS.DatabaseAccess, { useValue: new DatabaseAccess(db) });
  container.register(TOKENS.Jobs, { useValue: new JobRunner(clock, logger) });
  container.register(TOKENS.Events, {
    useValue: new InProcessEventBus(nodeId, clock, (err, event) => logger.error({ err, type: event.type }, 'event subscriber failed')),
  });
  container.register(TOKENS.Modules, { useValue: modules });
  registerModules(container, modules, db.knex);
  return container;
}

/**
 * What starts and stops, module by module in the order of their `needs` (each after what it needs;
 * stopped in reverse), each module's parts in the order it gives them.
 */
export function lifecycleParts(container: DependencyContainer): [string, Lifecycle][] {
  return moduleParts(container, container.resolve(TOKENS.Modules));
}
