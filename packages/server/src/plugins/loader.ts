import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADAPTER_API_VERSION, adapterDefinitionProblem, type AdapterDefinition } from '@garrison/core';

/** The step at which loading an adapter failed, so an author knows where to look. */
export type LoadPhase = 'resolve' | 'import' | 'check';

export class PluginLoadError extends Error {
  constructor(
    readonly source: string,
    readonly phase: LoadPhase,
    reason: string,
    readonly hint: string,
  ) {
    super(`adapter ${source} failed to load at the ${phase} step: ${reason} (${hint})`);
    this.name = 'PluginLoadError';
  }
}

interface PackageJson {
  name?: string;
  main?: string;
  exports?: string | Record<string, unknown>;
  dependencies?: Record<string, string>;
  garrison?: { adapter?: boolean; apiVersion?: number };
}

export interface LoadedAdapter {
  definition: AdapterDefinition;
  /** Package name or module path it came from. */
  source: string;
}

function readPackageJson(path: string): PackageJson {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

/** Finds `<dir>/node_modules/<name>` the way Node does: from `from` upwards. */
function findPackageDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return dirname(candidate);
    if (dirname(dir) === dir) return null;
  }
}

function checkMarker(source: string, pkg: PackageJson): void {
  const declared = pkg.garrison?.apiVersion;
  if (declared !== ADAPTER_API_VERSION) {
    throw new PluginLoadError(
      source,
      'check',
      `package.json declares garrison.apiVersion ${JSON.stringify(declared)}, this server speaks ${ADAPTER_API_VERSION}`,
      'build the adapter against the @garrison/core of this server',
    );
  }
}

/**
 * Adapter packages named as dependencies of the server package or of the project it runs in, that
 * mark themselves with `"garrison": {"adapter": true, "apiVersion": N}` in their package.json.
 */
interface FoundPackage {
  name: string;
  dir: string;
  pkg: PackageJson;
}

function discoverAdapterPackages(roots: string[]): FoundPackage[] {
  const found = new Map<string, FoundPackage>();
  for (const root of roots) {
    const pkgPath = join(root, 'package.json');
    if (!existsSync(pkgPath)) continue;
    for (const name of Object.keys(readPackageJson(pkgPath).dependencies ?? {})) {
      if (found.has(name)) continue;
      const dir = findPackageDir(name, root);
      const pkg = dir && readPackageJson(join(dir, 'package.json'));
      if (dir && pkg && pkg.garrison?.adapter === true) found.set(name, { name, dir, pkg });
    }
  }
  return [...found.values()];
}

function checkDefinition(source: string, value: unknown): AdapterDefinition {
  const problem = adapterDefinitionProblem(value);
  if (problem) throw new PluginLoadError(source, 'check', problem.reason, problem.hint);
  return value as AdapterDefinition;
}

/** The file a package's `import` would load: its exports' `.` entry (import/default condition), else `main`. */
function packageEntry(dir: string, pkg: PackageJson): string {
  let target: unknown = typeof pkg.exports === 'object' && '.' in pkg.exports ? pkg.exports['.'] : pkg.exports;
  while (target && typeof target === 'object') {
    const conditions = target as Record<string, unknown>;
    target = conditions.import ?? conditions.node ?? conditions.default;
  }
  return join(dir, typeof target === 'string' ? target : (pkg.main ?? 'index.js'));
}

async function importModule(source: string, specifier: string): Promise<unknown> {
  try {
    const module = (await import(specifier)) as { default?: unknown };
    return module.default;
  } catch (err) {
    throw new PluginLoadError(
      source,
      'import',
      (err as Error).message,
      'check that the package is built and its entry point loads on its own',
    );
  }
}

/** A module path from GARRISON_PLUGINS: a file, or a package folder whose package.json carries the marker. */
async function loadPath(path: string): Promise<LoadedAdapter> {
  const full = resolve(path);
  if (!existsSync(full))
    throw new PluginLoadError(path, 'resolve', 'no such file or folder', 'GARRISON_PLUGINS takes comma-separated paths to adapter modules');
  let entry = full;
  if (statSync(full).isDirectory()) {
    const pkgPath = join(full, 'package.json');
    if (!existsSync(pkgPath))
      throw new PluginLoadError(path, 'resolve', 'the folder has no package.json', 'point at the adapter package or its entry file');
    const pkg = readPackageJson(pkgPath);
    checkMarker(path, pkg);
    entry = packageEntry(full, pkg);
  }
  return { source: path, definition: checkDefinition(path, await importModule(path, pathToFileURL(entry).href)) };
}

async function loadPackage({ name, dir, pkg }: FoundPackage): Promise<LoadedAdapter> {
  checkMarker(name, pkg);
  // Resolved from the server first (so Node's export conditions apply); a package installed only in
  // the project the server runs in is loaded from its own entry file.
  const fromServer = findPackageDir(name, SERVER_PACKAGE_ROOT) === dir;
  const specifier = fromServer ? name : pathToFileURL(packageEntry(dir, pkg)).href;
  return { source: name, definition: checkDefinition(name, await importModule(name, specifier)) };
}

const SERVER_PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Loads every discovered adapter package and every listed module path; any failure stops start-up. */
export async function loadAdapters(options: { plugins: string[]; projectRoot?: string }): Promise<LoadedAdapter[]> {
  const roots = [SERVER_PACKAGE_ROOT, options.projectRoot ?? process.cwd()];
  const loaded: LoadedAdapter[] = [];
  for (const found of discoverAdapterPackages(roots)) loaded.push(await loadPackage(found));
  for (const path of options.plugins) loaded.push(await loadPath(path));
  const seen = new Map<string, string>();
  for (const { definition, source } of loaded) {
    const other = seen.get(definition.identity.game_type);
    if (other)
      throw new PluginLoadError(
        source,
        'check',
        `game_type ${definition.identity.game_type} is already provided by ${other}`,
        'remove one of the two',
      );
    seen.set(definition.identity.game_type, source);
  }
  return loaded;
}
