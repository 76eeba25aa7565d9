import { isSensitive, sectionDefaults, TypeCompiler, type ImportSettingAt, type TObject, type TSchema, expectOnly } from '@garrison/core';
import { ConfigWriter, NotWritable, type Value } from '../config/syntax.js';
import { GENERATED_FILES, type GeneratedFile, type Key } from '../config/render.js';
import { RotationEntry } from '../config/sections.js';
import { DIFFICULTIES, DIFFICULTY_NAMES } from '../missions.js';
import { extraLinesProblem } from '../config/extra-lines.js';
import type { CfgAssignment, CfgClassNode, CfgDocument, CfgNode, CfgValue } from './cfg-reader.js';

/** Where a setting of an imported file came from (core's shape of it). */
export type SettingAt = ImportSettingAt;

/** What one of the game's files says, as a section of Garrison's config. */
export interface ImportedFile {
  /** Field → value, each checked against its field. */
  values: Record<string, unknown>;
  /** Keys Garrison has no field for: kept, in the game's syntax, in the section's extra lines. */
  unknown: SettingAt[];
  extraLines: string[];
  /** Known keys whose value a field cannot take (out of bounds, wrong type): left at the default. */
  refused: (SettingAt & { reason: string })[];
  /** server.cfg's `class Missions`, in order. */
  rotation: { name: string; difficulty: string }[];
}

const asList = (v: CfgValue): CfgValue[] => (Array.isArray(v) ? v : [v]);

/**
 * Checks a value against its field and records it, or the refusal with its reason: what every importer
 * of a file does with each setting it recognises.
 */
const compiled = new WeakMap<TSchema, ReturnType<typeof TypeCompiler.Compile>>();
const checkerOf = (schema: TSchema) => compiled.get(schema) ?? compiled.set(schema, TypeCompiler.Compile(schema)).get(schema)!;

export function fieldAcceptor(section: TObject, out: Pick<ImportedFile, 'values' | 'refused'>) {
  return (at: SettingAt, field: string, raw: unknown) => {
    const schema = section.properties[field] as TSchema | undefined;
    if (!schema) return void out.refused.push({ ...at, reason: `no field ${field}` });
    const value = coerce(raw as CfgValue, schema);
    const check = checkerOf(schema);
    if (check.Check(value)) out.values[field] = value;
    else
      out.refused.push({
        ...at,
        reason: `${JSON.stringify(raw)} does not fit ${field}: ${[...check.Errors(value)][0]?.message ?? 'refused'}`,
      });
  };
}

/** A file value as the field takes it: 0/1 toggles from true/false, strings of lists, numbers of numeric text. */
function coerce(value: CfgValue, schema: TSchema): unknown {
  // A toggle over 0/1 takes true/false as 1/0; a boolean field takes 0/1 as false/true.
  if (typeof value === 'boolean' && (schema.type === 'integer' || schema.type === 'number')) return Number(value);
  if (schema.type === 'boolean')
    return typeof value === 'number'
      ? value !== 0
      : typeof value === 'string' && /^(true|false)$/i.test(value)
        ? /^true$/i.test(value)
        : value;
  if (schema.type === 'array')
    return asList(value).map((v) => (typeof v === 'number' && (schema.items as TSchema | undefined)?.type === 'string' ? String(v) : v));
  if (schema.type === 'string' && typeof value === 'number') return String(value);
  if (
    (schema.type === 'integer' || schema.type === 'number') &&
    typeof value === 'string' &&
    value.trim() !== '' &&
    !Number.isNaN(Number(value))
  )
    return Number(value);
  return value;
}

/** A setting or class written back in the game's syntax, for the extra lines. */
function written(node: CfgNode, w = new ConfigWriter()): ConfigWriter {
  if (node.kind === 'value') {
    if (node.append) return w.append(node.key, asList(node.value));
    return node.array ? w.array(node.key, asList(node.value)) : w.set(node.key, node.value as Exclude<Value, readonly Value[]>);
  }
  w.open(node.name);
  for (const inner of node.entries) written(inner, w);
  return w.close();
}

/**
 * A setting Garrison has no field for, as the lines the file written will hold, checked as extra lines
 * are (one that does not check would have every other extra line of its file left out); or why it
 * cannot be kept. A class with a setting in it that does not check is kept without it, and that setting
 * is said with its own line (`left`).
 */
export function keptLines(
  node: CfgNode,
  check: (lines: string[]) => string | null,
): { lines: string[]; left: { node: CfgNode; key: string; reason: string }[] } | string {
  const one = (n: CfgNode): string[] | string => {
    try {
      const lines = written(n).toString().trimEnd().split('\n');
      const problem = check(lines);
      return problem ? `cannot be kept as an extra line: ${problem.replace(/^line \d+: /, '')}` : lines;
    } catch (err) {
      return `cannot be kept: ${(err as Error).message}`;
    }
  };
  const whole = one(node);
  if (typeof whole !== 'string') return { lines: whole, left: [] };
  if (node.kind !== 'class') return whole;
  // Inside a class no key is Garrison's: each setting checked alone, as the game's syntax only.
  const left: { node: CfgNode; key: string; reason: string }[] = [];
  const prune = (c: CfgClassNode, path: string): CfgClassNode => ({
    ...c,
    entries: c.entries.flatMap((e): CfgNode[] => {
      if (e.kind === 'class') return [prune(e, `${path}.${e.name}`)];
      const alone = one({ ...e });
      return typeof alone === 'string' ? (left.push({ node: e, key: `${path}.${e.key}`, reason: alone }), []) : [e];
    }),
  });
  const pruned = prune(node, node.name);
  const rest = left.length ? one(pruned) : whole;
  return typeof rest === 'string' ? whole : { lines: rest, left };
}

/** Reads one of the files Garrison generates (`server.cfg`, `basic.cfg`) into its section. */
export function importFile(file: Exclude<GeneratedFile, 'server.GameaProfile'>, doc: CfgDocument, section: TObject): ImportedFile {
  const { keys, classes } = GENERATED_FILES[file];
  const byKey = new Map(keys.map((k) => [k.key.toLowerCase(), k]));
  const out: ImportedFile = { values: {}, unknown: [], extraLines: [], refused: [], rotation: [] };
  const accept = fieldAcceptor(section, out);
  const read: { node: CfgAssignment; key: Key }[] = [];
  const keep = (node: CfgNode) => {
    const at = { file: node.file, line: node.line, key: node.kind === 'value' ? node.key : `class ${node.name}` };
    const kept = keptLines(node, (l) => extraLinesProblem(file, l));
    if (typeof kept === 'string') return void out.refused.push({ ...at, reason: kept });
    out.unknown.push(at);
    out.extraLines.push(...kept.lines);
    for (const { node: n, key, reason } of kept.left) out.refused.push({ file: n.file, line: n.line, key, reason });
  };
  for (const node of doc.entries) {
    if (node.kind === 'class') {
      const known = classes.find((c) => c.className.toLowerCase() === node.name.toLowerCase());
      if (known?.className === 'Missions') out.rotation.push(...rotationOf(node, out));
      else if (known?.read) importClass(node, known.read, accept, out);
      else keep(node);
      continue;
    }
    const at = { file: node.file, line: node.line, key: node.key };
    const key = byKey.get(node.key.toLowerCase());
    if (!key) {
      keep(node);
      continue;
    }
    read.push({ node, key });
    // A key whose value is not one field's as it is: the key's own reading (render.ts) undoes it.
    if (key.read) {
      const mapped = key.read(node.value);
      if (typeof mapped === 'string') out.refused.push({ ...at, reason: mapped });
      else for (const [field, value] of Object.entries(mapped)) accept(at, field, value);
    } else if (key.fields.length === 1) accept(at, key.fields[0], node.value);
    else out.refused.push({ ...at, reason: 'not read back by this version' });
  }
  writtenAsRead(read, section, out);
  return out;
}

/**
 * Each key Garrison writes itself, as it will write it from the values read, against what the file said:
 * a key whose value Garrison leaves out (`missionWhitelist[] = {};`, `missionsToShutdown = 0;`) is
 * written all the same; a key Garrison would write otherwise (another form, other entries) is refused
 * with what it would write, and its fields stay at the defaults: a value is kept as it was, or said.
 */
function writtenAsRead(read: { node: CfgAssignment; key: Key }[], section: TObject, out: ImportedFile): void {
  const always: string[] = [];
  for (const { node, key } of read) {
    if (out.refused.some((r) => r.file === node.file && r.line === node.line && r.key === node.key)) continue;
    const s = { ...sectionDefaults(section), ...out.values };
    if (key.when && !key.when(s)) always.push(key.key);
    const rendered = key.value ? key.value(s, {}) : s[key.fields[0]];
    if (sameValue(node.array ? asList(node.value) : node.value, rendered)) continue;
    for (const field of key.fields) delete out.values[field];
    let shown = 'another value';
    try {
      if (!key.fields.some((f) => isSensitive(section.properties[f])))
        shown = written({ ...node, value: rendered as CfgValue })
          .toString()
          .trim();
    } catch (err) {
      expectOnly(err, NotWritable);
      shown = JSON.stringify(rendered);
    }
    out.refused.push({
      file: node.file,
      line: node.line,
      key: node.key,
      reason: `Garrison would write this as ${shown}, not as the file says: set it in the config`,
    });
  }
  if (always.length) out.values.written_when_empty = always;
}

/** The same value to the game: true and 1, "64" and 64, a difficulty's name in any case. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const norm = (v: unknown) =>
    typeof v === 'boolean' ? Number(v) : typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v;
  const [x, y] = [norm(a), norm(b)];
  return typeof x === 'string' && typeof y === 'string'
    ? x.toLowerCase() === y.toLowerCase() && (x === y || DIFFICULTIES.some((d) => d.toLowerCase() === x.toLowerCase()))
    : x === y;
}

/** A class Garrison writes whole (`AdvancedOptions`, `sockets`): its keys into their fields; one without a field cannot be kept. */
function importClass(
  node: CfgClassNode,
  read: Readonly<Record<string, string>>,
  accept: (at: SettingAt, field: string, raw: unknown) => void,
  out: ImportedFile,
): void {
  for (const inner of node.entries) {
    const key = `${node.name}.${inner.kind === 'value' ? inner.key : inner.name}`;
    const field = inner.kind === 'value' ? read[inner.key.toLowerCase()] : undefined;
    if (inner.kind === 'value' && field) accept({ file: inner.file, line: inner.line, key }, field, inner.value);
    else
      out.refused.push({
        file: inner.file,
        line: inner.line,
        key,
        reason: `Garrison writes class ${node.name} itself and has no field for this`,
      });
  }
}

/** `class Missions { class Any { template = Name.Terrain; difficulty = "Veteran"; }; … }`, in order. */
function rotationOf(node: CfgClassNode, out: ImportedFile): { name: string; difficulty: string }[] {
  const rotation: { name: string; difficulty: string }[] = [];
  const refuse = (e: CfgNode, key: string, reason: string) => out.refused.push({ file: e.file, line: e.line, key, reason });
  for (const mission of node.entries) {
    if (mission.kind !== 'class') {
      refuse(mission, `Missions.${mission.key}`, 'Garrison writes class Missions from its rotation, which holds missions only');
      continue;
    }
    const get = (k: string) => mission.entries.find((e): e is CfgAssignment => e.kind === 'value' && e.key.toLowerCase() === k);
    const template = get('template');
    if (!template || typeof template.value !== 'string') {
      refuse(mission, `Missions.${mission.name}`, 'a mission without a template');
      continue;
    }
    const written = get('difficulty');
    const difficulty = written === undefined ? '' : String(written.value);
    const known = DIFFICULTIES.find((d) => d.toLowerCase() === difficulty.toLowerCase());
    const name = template.value.replace(/\.pbo$/i, '');
    const entry: unknown = { name, difficulty: known ?? '' };
    if (!checkerOf(RotationEntry).Check(entry)) {
      refuse(mission, `Missions.${mission.name}`, `${JSON.stringify(name)} is not a mission name the game loads`);
      continue;
    }
    rotation.push(entry as { name: string; difficulty: string });
    // What the rotation has no place for is said, each where it is: it is not written back.
    if (written && !known)
      refuse(
        written,
        `Missions.${mission.name}.difficulty`,
        `${JSON.stringify(difficulty)} is no difficulty (${DIFFICULTY_NAMES}): the mission is kept without one`,
      );
    for (const e of mission.entries) {
      const key = e.kind === 'value' ? e.key : e.name;
      if (e === template || e === written) continue;
      if (e.kind === 'class' && key.toLowerCase() === 'params') {
        for (const p of e.entries)
          refuse(
            p,
            `Missions.${mission.name}.Params.${p.kind === 'value' ? p.key : p.name}`,
            "Garrison's rotation has no mission parameters: the mission starts with its own defaults",
          );
      } else refuse(e, `Missions.${mission.name}.${key}`, "Garrison's rotation keeps a mission's template and difficulty only");
    }
  }
  return rotation;
}
