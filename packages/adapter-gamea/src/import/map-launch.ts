import type { TObject } from '@garrison/core';
import type { StartCommand } from './command-line.js';
import { fieldAcceptor, type ImportedFile } from './map-file.js';

/** Launch parameters with a field of the launch section (launch.ts writes them back). */
const FIELDS: Record<string, string> = {
  world: 'world',
  limitfps: 'limit_fps',
  autoinit: 'auto_init',
  loadmissiontomemory: 'load_mission_to_memory',
  enableht: 'enable_ht',
  hugepages: 'huge_pages',
  filepatching: 'file_patching',
  netlog: 'netlog',
  maxmem: 'max_mem',
  cpucount: 'cpu_count',
  exthreads: 'ex_threads',
  bandwidthalg: 'bandwidth_alg',
};

/** Parameters Garrison sets itself (paths into its own folders, the port, the mods): read elsewhere or replaced. */
const MANAGED = new Set(['config', 'cfg', 'profiles', 'name', 'port', 'mod', 'servermod', 'bepath']);

/**
 * The start command's launch options into the launch section. A parameter Garrison has no field for is
 * refused with its reason: Garrison builds the command line, and it has no extra lines.
 */
export function importLaunch(command: StartCommand, section: TObject): ImportedFile {
  const out: ImportedFile = { values: {}, unknown: [], extraLines: [], refused: [], rotation: [] };
  const accept = fieldAcceptor(section, out);
  for (const [name, value] of command.parameters) {
    const at = { file: 'command line', line: 0, key: `-${name}` };
    const field = FIELDS[name];
    if (field) {
      const schema = section.properties[field] as { type?: string } | undefined;
      // A bare switch turns a boolean on; `-autoInit=false` and the like read as written.
      accept(
        at,
        field,
        value === true ? (schema?.type === 'boolean' ? true : '') : schema?.type === 'boolean' ? /^(1|true)$/i.test(value) : value,
      );
    } else if (!MANAGED.has(name)) {
      out.refused.push({ ...at, reason: 'Garrison builds the command line and has no field for this parameter' });
    }
  }
  return out;
}
