import type { DependencyContainer } from 'tsyringe';
import type { Knex } from 'knex';
import type { EndpointDef } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Migration } from '../db/migrations/index.js';
import type { Job, JobSpec } from '../jobs/runner.js';
import type { RouteTable } from '../http/route-table.js';
import type { FeatureModule } from './feature-module.js';

/** Every module's repositories bound to `knex`, by the names the modules give them. */
export function bindModuleRepositories(knex: Knex, modules: readonly FeatureModule[]): Record<string, object> {
  const bag: Record<string, object> = {};
  for (const module of modules) {
    for (const [name, Repository] of Object.entries(module.repositories ?? {})) {
      if (name in bag) throw new Error(`repository ${name} of module ${module.name} is named by another module too`);
      bag[name] = new Repository(knex);
    }
  }
  return bag;
}

/** The modules' repositories (in the bag and each by its class) and services, one of each per container. */
export function registerModules(container: DependencyContainer, modules: readonly FeatureModule[], knex: Knex): void {
  const bag = bindModuleRepositories(knex, modules);
  container.register(TOKENS.Repositories, { useValue: bag as never });
  for (const module of modules) {
    for (const [name, Repository] of Object.entries(module.repositories ?? {})) container.register(Repository, { useValue: bag[name] });
    for (const service of module.services ?? []) container.registerSingleton(service as never);
  }
}

/** The migrations the modules bring, after the base ones, named `<module>/<name>` so that no two meet. */
export function moduleMigrations(modules: readonly FeatureModule[]): [string, Migration][] {
  return modules.flatMap((m) => (m.migrations ?? []).map(([name, migration]): [string, Migration] => [`${m.name}/${name}`, migration]));
}

/** The endpoints the modules declare: what the route table serves, each once. */
export function moduleEndpoints(modules: readonly FeatureModule[]): EndpointDef[] {
  const declared = new Map<string, string>();
  for (const module of modules) {
    for (const endpoint of module.endpoints ?? []) {
      const other = declared.get(endpoint.operationId);
      if (other) throw new Error(`endpoint ${endpoint.operationId} is declared by modules ${other} and ${module.name}`);
      declared.set(endpoint.operationId, module.name);
    }
  }
  return modules.flatMap((m) => m.endpoints ?? []);
}

/** Every module's routes; fails naming what a module declares and does not implement. */
export function implementModuleRoutes(routes: RouteTable, container: DependencyContainer, modules: readonly FeatureModule[]): void {
  for (const module of modules) module.routes?.(routes, container);
  const missing = routes.unimplemented();
  if (missing.length) throw new Error(`endpoints declared but not implemented: ${missing.join(', ')}`);
}

/** What starts and stops, module by module in start order: each module's parts, then its jobs. */
export function moduleParts(container: DependencyContainer, modules: readonly FeatureModule[]): [string, Lifecycle][] {
  return modules.flatMap((module): [string, Lifecycle][] => {
    const parts = (module.parts?.(container) ?? []).map(([name, part]): [string, Lifecycle] => [name, part]);
    if (module.jobs) parts.push([`${module.name} jobs`, jobsPart(container, module.jobs(container))]);
    return parts;
  });
}

function jobsPart(container: DependencyContainer, specs: readonly JobSpec[]): Lifecycle {
  const running: Job[] = [];
  return {
    start: () => {
      const jobs = container.resolve(TOKENS.Jobs);
      for (const spec of specs) running.push(jobs.every(spec));
    },
    stop: () => {
      for (const job of running.splice(0)) job.cancel();
    },
  };
}
