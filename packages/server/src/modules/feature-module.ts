import type { DependencyContainer } from 'tsyringe';
import type { Knex } from 'knex';
import type { EndpointDef } from '@garrison/core';
import type { RouteTable } from '../http/route-table.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { JobSpec } from '../jobs/runner.js';
import type { Migration } from '../db/migrations/index.js';
import type { SettingsDeclaration } from '../setting-specs.js';

/** A repository: one table's queries over a connection (a transaction's, too). */
type RepositoryClass = new (knex: Knex) => object;
/** A module's repository classes by the name the `Repositories` bag gives them. */
type RepositoryClasses = Record<string, RepositoryClass>;
/** The repositories of a module that brings none of its own. */
export type NoRepositories = RepositoryClasses;
/** A service, built once per container from its injected dependencies. */
type ServiceClass = new (...args: never[]) => unknown;

/**
 * What one feature folder brings to the service, declared in its `module.ts` and registered in the
 * root's one list (features.ts). Nothing here starts anything: the root builds, migrates, mounts and
 * starts the modules in the order their `needs` give.
 */
export interface FeatureModule<R extends RepositoryClasses = RepositoryClasses, S extends object = object> {
  readonly name: string;
  /** What a deployer can set for this feature (help and docs/configuration.md are made from it); its services take this slice. */
  readonly settings?: SettingsDeclaration<S>;
  /** Modules whose parts must have started before this one's start (and stop after it stops). */
  readonly needs?: readonly string[];
  /** Bound to the connection into the `Repositories` bag under these names, and each by its class. */
  readonly repositories?: R;
  readonly services?: readonly ServiceClass[];
  /** Applied after the base migrations, in module order; recorded as `<module>/<name>`. */
  readonly migrations?: readonly (readonly [name: string, migration: Migration])[];
  /**
   * The endpoints `routes` implements, each with its API-key scope: its feature's table in core (for the
   * SDK and the console), or its own for a module outside core. Served, scoped and documented as declared.
   */
  readonly endpoints?: readonly EndpointDef[];
  /** Implements this feature's endpoints over its services. */
  readonly routes?: (routes: RouteTable, c: DependencyContainer) => void;
  /** What starts and stops, in this order; called once, before anything starts. */
  readonly parts?: (c: DependencyContainer) => readonly (readonly [string, Lifecycle])[];
  /** Repeated work run by the job runner from the module's start (after its parts) until its stop. */
  readonly jobs?: (c: DependencyContainer) => readonly JobSpec[];
}

type Instances<R> = { [K in keyof R]: R[K] extends new (knex: Knex) => infer I ? I : never };
// A module that names no repositories of its own (typed by the default) brings none.
type RepositoriesIn<M> = M extends FeatureModule<infer R> ? (string extends keyof R ? never : Instances<R>) : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The repositories a list of modules brings, by name: the `Repositories` bag's type. */
export type RepositoriesOf<M extends readonly FeatureModule[]> =
  Intersection<RepositoriesIn<M[number]>> extends infer I ? { [K in keyof I]: I[K] } : never;
