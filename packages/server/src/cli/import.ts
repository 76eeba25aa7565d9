import { ApiError, SYSTEM_ACTOR, type ImportPlan, type ImportServerRequest } from '@garrison/core';
import { loadAdapters } from '../plugins/loader.js';
import { AdapterRegistry } from '../plugins/registry.js';
import { compose } from '../compose.js';
import { nodeIdOf } from '../data-dir.js';
import { SystemClock } from '../jobs/clock.js';
import { ImportService } from '../import/service.js';
import { AuditService } from '../audit/service.js';
import { missionWithOptions } from '../missions/options.js';
import type { Store } from './store.js';

/**
 * `garrison import`: what `POST /api/servers/import` does, on the service's own database, by the system
 * actor. The plan is printed as a report (or as JSON); the credentials read, once, like the API's answer.
 */
export async function importServer(store: Store, request: ImportServerRequest, json: boolean): Promise<void> {
  const adapters = new AdapterRegistry((await loadAdapters({ plugins: store.settings.plugins })).map((l) => l.definition));
  const container = compose(store.settings, store.logger, store.db, adapters, new SystemClock(), nodeIdOf(store.settings));
  let plan: ImportPlan;
  try {
    plan = await container.resolve(ImportService).import(request, { ...SYSTEM_ACTOR, name: 'garrison import' });
  } catch (err) {
    if (err instanceof ApiError) {
      const where = typeof err.extra.line === 'number' ? ` (${String(err.extra.file)}:${err.extra.line}:${String(err.extra.column)})` : '';
      throw new Error(`${err.code}: ${err.message}${where}`, { cause: err });
    }
    throw err;
  } finally {
    await container.resolve(AuditService).stop();
  }
  console.log(json ? JSON.stringify(plan, null, 2) : report(plan));
}

function report(plan: ImportPlan): string {
  const { server } = plan;
  const lines = [
    plan.dry_run ? 'Dry run: nothing was written. The import would make:' : `Imported as server ${'id' in server ? server.id : '?'}:`,
    `  ${server.name} (${server.game_type}), game port ${server.game_port}, RCon port ${server.rcon_port}`,
    `  executable ${server.exe_path}`,
    '',
    'Files:',
    ...plan.files.map((f) => `  ${f.found ? 'read   ' : 'missing'} ${f.role}: ${f.path}`),
    '',
    ...Object.entries(plan.sections).map(([name, values]) => `Section ${name}: ${Object.keys(values).length} settings read`),
    `Rotation: ${plan.rotation.map(({ name, ...options }) => missionWithOptions(name, options)).join(', ') || 'none'}`,
    'Mods: ' +
      (plan.mods.map((m) => `${m.name}${m.is_server_mod ? ' [server]' : ''}${m.installed ? '' : ' [not installed]'}`).join(', ') || 'none'),
    `Bans: ${plan.bans.count}${plan.bans.file ? ` from ${plan.bans.file}` : ''}`,
    `Missions in the folder: ${plan.missions.length}`,
  ];
  if (plan.unknown.length)
    lines.push('', 'Kept as extra lines (no field in Garrison):', ...plan.unknown.map((u) => `  ${u.file}:${u.line} ${u.key}`));
  if (plan.refused.length)
    lines.push('', 'Not taken (left at the default):', ...plan.refused.map((r) => `  ${r.file}:${r.line} ${r.key}: ${r.reason}`));
  if (plan.warnings.length) lines.push('', 'Warnings:', ...plan.warnings.map((w) => `  ${w}`));
  if (!plan.dry_run) {
    const secrets = Object.entries(server).filter(([k]) => /password/.test(k));
    if (secrets.length) lines.push('', 'Credentials (shown once):', ...secrets.map(([k, v]) => `  ${k}: ${String(v)}`));
  }
  return lines.join('\n');
}
