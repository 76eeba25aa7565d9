import { basename } from 'node:path';
import { readBattlEyeCfg, readCfg, readStartCommand, type CfgDocument } from '@garrison/adapter-gamea';

/**
 * Whether every key of an imported file is accounted for: in the file Garrison writes, with the same value
 * (as the game reads it), or in the plan's `refused` with its reason. Independent of the importer's own
 * reading: the original and the rendered file are both read here and compared key by key.
 */
export interface Refusal {
  file: string;
  line: number;
  key: string;
  reason: string;
}

type Node = CfgDocument['entries'][number];
interface Setting {
  path: string[];
  key: string;
  value: unknown;
  /** `key[] += {…}`: adds to the list instead of setting it. */
  append: boolean;
  file: string;
  /** Its line and its classes' lines: a class refused whole refuses what it holds. */
  lines: number[];
}

function settingsOf(entries: Node[], path: string[] = [], lines: number[] = []): Setting[] {
  return entries.flatMap((n): Setting[] =>
    n.kind === 'value'
      ? [{ path, key: n.key, value: n.value, append: n.append, file: n.file, lines: [n.line, ...lines] }]
      : settingsOf(n.entries, [...path, n.name], [n.line, ...lines]),
  );
}

/** The game's reading: true is 1, "64" is 64. Names of difficulties in any case. */
const norm = (v: unknown) =>
  typeof v === 'boolean' ? Number(v) : typeof v === 'string' && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(v.trim()) ? Number(v) : v;
function same(a: unknown, b: unknown, anyCase = false): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i], anyCase));
  const [x, y] = [norm(a), norm(b)];
  return anyCase && typeof x === 'string' && typeof y === 'string' ? x.toLowerCase() === y.toLowerCase() : x === y;
}
const ANY_CASE = new Set(['difficulty', 'forceddifficulty']);
/** Where Garrison writes what a file had elsewhere: TADST's CustomAILevel inside CustomDifficulty goes beside it. */
const moved = (path: string) => path.replace(/^difficultypresets\.customdifficulty\.customailevel\./, 'difficultypresets.customailevel.');

const refusedAt = (refused: Refusal[], file: string, lines: number[]) =>
  refused.find((r) => basename(r.file) === basename(file) && lines.includes(r.line) && r.reason.trim().length > 0);

/** The keys of a config file (server.cfg with what it includes, basic.cfg, the profile) not accounted for, each said. */
export function unaccountedCfg(
  original: CfgDocument,
  rendered: string,
  refused: Refusal[],
  rotation: ({ name: string } & Record<string, string>)[] = [],
): string[] {
  const written = new Map<string, unknown[]>();
  const appended = new Set<string>();
  for (const s of settingsOf(readCfg(rendered, 'rendered').entries)) {
    const at = [...s.path, s.key].join('.').toLowerCase();
    written.set(at, [...(written.get(at) ?? []), s.value]);
    if (s.append) appended.add(at);
  }
  const problems = [...written]
    .filter(([, values]) => values.length > 1)
    .map(([at]) => `${at} is written ${written.get(at)!.length} times`);
  // The missions in the rotation, in order: those not refused whole.
  const missions = new Map<string, { node: Node; index: number }>();
  for (const n of original.entries)
    if (n.kind === 'class' && n.name.toLowerCase() === 'missions')
      for (const m of n.entries)
        if (m.kind === 'class' && !refusedAt(refused, m.file, [m.line, n.line])) missions.set(m.name, { node: m, index: missions.size });
  for (const s of settingsOf(original.entries)) {
    const at = [...s.path, s.key].join('.');
    if (refusedAt(refused, s.file, s.lines)) continue;
    if (s.path[0]?.toLowerCase() === 'missions' && s.path.length === 2) {
      const mission = missions.get(s.path[1]);
      const template =
        mission?.node.kind === 'class'
          ? mission.node.entries.find((e) => e.kind === 'value' && e.key.toLowerCase() === 'template')
          : undefined;
      const name = template?.kind === 'value' ? String(template.value).replace(/\.pbo$/i, '') : null;
      const entry = mission && rotation[mission.index]?.name === name ? rotation[mission.index] : undefined;
      const key = s.key.toLowerCase();
      if (entry && key === 'template') continue;
      if (entry && key === 'difficulty' && same(entry.difficulty, s.value, true)) continue;
      problems.push(`${s.file}:${s.lines[0]} ${at} = ${JSON.stringify(s.value)}: not in the rotation, nor refused`);
      continue;
    }
    const values = written.get(moved(at.toLowerCase()));
    if (!values) problems.push(`${s.file}:${s.lines[0]} ${at} = ${JSON.stringify(s.value)}: absent from the file written, and not refused`);
    else if (!same(values[0], s.value, ANY_CASE.has(s.key.toLowerCase())))
      problems.push(`${s.file}:${s.lines[0]} ${at} = ${JSON.stringify(s.value)}: written as ${JSON.stringify(values[0])}`);
    else if (appended.has(moved(at.toLowerCase())) !== s.append)
      problems.push(`${s.file}:${s.lines[0]} ${at}: ${s.append ? '+=' : '='} written as ${s.append ? '=' : '+='}`);
  }
  return problems;
}

/** The keys of BattlEye's config not in the one Garrison writes (RConPort: the server's RCon port), nor refused. */
export function unaccountedBattlEye(original: string, file: string, rendered: string, rconPort: number, refused: Refusal[]): string[] {
  const written = readBattlEyeCfg(rendered).settings;
  const problems: string[] = [];
  for (const [name, s] of readBattlEyeCfg(original).settings) {
    if (refusedAt(refused, file, [s.line])) continue;
    const value = name === 'rconport' ? String(rconPort) : written.get(name)?.value;
    if (value !== s.value) problems.push(`${file}:${s.line} ${s.key} ${s.value}: written as ${value ?? 'nothing'}`);
  }
  return problems;
}

/** Launch parameters with a field, as the test knows them (independent of the importer's table). */
const LAUNCH_FIELDS: Record<string, string> = {
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

export interface PlanPart {
  server: { game_port: number };
  files: { role: string; path: string; found: boolean }[];
  mods: { name: string; is_server_mod: boolean; installed: boolean }[];
  sections: Record<string, Record<string, unknown>>;
  refused: Refusal[];
}

/**
 * Each parameter of the start command: its field, the port, the mods (a missing one listed, not enabled), the file it names, or refused.
 */
export function unaccountedCommandLine(commandLine: string, plan: PlanPart): string[] {
  const command = readStartCommand(commandLine);
  const problems: string[] = [];
  const launch = plan.sections.launch ?? {};
  const enabled = ((launch.mods ?? []) as { name: string; is_server_mod: boolean }[]).map((m) => `${m.name}|${m.is_server_mod}`);
  for (const [name, value] of command.parameters) {
    if (plan.refused.some((r) => r.file === 'command line' && r.key.toLowerCase() === `-${name}` && r.reason)) continue;
    const field = LAUNCH_FIELDS[name];
    if (field) {
      if (!same(launch[field], value === true ? true : /^(true|false)$/i.test(value) ? /^true$/i.test(value) : value))
        problems.push(`-${name}=${String(value)}: launch.${field} is ${JSON.stringify(launch[field])}`);
    } else if (name === 'port') {
      if (plan.server.game_port !== Number(value))
        problems.push(`-port=${String(value)}: the server's game port is ${plan.server.game_port}`);
    } else if (name === 'mod' || name === 'servermod') {
      for (const mod of name === 'mod' ? command.mods : command.serverMods) {
        const listed = plan.mods.find((m) => m.name === mod && m.is_server_mod === (name === 'servermod'));
        if (!listed) problems.push(`-${name} ${mod}: not in the plan's mods`);
        else if (listed.installed !== enabled.includes(`${mod}|${listed.is_server_mod}`))
          problems.push(`-${name} ${mod}: installed ${listed.installed}, but enabled ${!listed.installed}`);
      }
    } else if (['config', 'cfg', 'profiles', 'name', 'bepath'].includes(name)) {
      const part = basename(String(value).replace(/\\/g, '/')).toLowerCase();
      if (!plan.files.some((f) => f.found && f.path.toLowerCase().includes(part)))
        problems.push(`-${name}=${String(value)}: no file read from there`);
    } else problems.push(`-${name}: neither a field nor refused`);
  }
  return problems;
}
