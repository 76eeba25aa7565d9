import {
  isSensitive,
  TypeCompiler,
  type ImportDraft,
  type ImportFileAccess,
  type ImportSource,
  type ServerImporter,
  type TSchema,
} from '@garrison/core';
import { sections } from './config/sections.js';
import { statementsOf } from './config/cvars.js';
import { extraLinesProblem, MANAGED } from './config/render.js';
import { parseBanLine } from './bans.js';
import { MAP_EXTENSION, mapNameProblem } from './maps.js';

const COMMAND_LINE = 'command line';
/** Where the game listens without -port. */
const GAME_DEFAULT_PORT = 27015;

/** cvar (lower case) → section and field it fills. */
const CVAR_FIELDS: Record<string, [keyof typeof sections, string]> = {
  hostname: ['server', 'hostname'],
  sv_password: ['server', 'sv_password'],
  rcon_password: ['rcon', 'rcon_password'],
  sv_maxrate: ['server', 'sv_maxrate'],
  mp_timelimit: ['server', 'mp_timelimit'],
};

/** What the importer reads of a start command: `-port 27015 +maxplayers 24 +map de_dust2 +exec server.cfg`. */
export function readStartCommand(commandLine: string): Map<string, string> {
  const words = [...commandLine.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  const found = new Map<string, string>();
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (/^[-+]\w+$/.test(word) && next !== undefined && !/^[-+]\w/.test(next) && !found.has(word.toLowerCase()))
      found.set(word.toLowerCase(), next);
  });
  return found;
}

const compiled = new WeakMap<TSchema, ReturnType<typeof TypeCompiler.Compile>>();
const checkerOf = (schema: TSchema) => compiled.get(schema) ?? compiled.set(schema, TypeCompiler.Compile(schema)).get(schema)!;

/** A cvar's text as its field takes it: a number field takes numeric text (`0`, `30.0`). */
function coerce(value: string, schema: TSchema): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(?:\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
}

/**
 * An installation that ran without Garrison: `cfg/server.cfg` (or the cfg its start command execs, or the
 * one named) read tolerantly into the sections (comments and spacing as they come, quoted or not, what
 * Garrison has no field for kept as extra lines), the map cycle, ports and player slots from the start
 * command, the ban lists and the maps. The game's syntax has no errors to fail on: a quote left open runs
 * to the end of its line, as the game reads it.
 */
export const importer: ServerImporter = {
  async read(source: ImportSource, files: ImportFileAccess): Promise<ImportDraft> {
    const command = readStartCommand(source.command_line ?? '');
    const draft: ImportDraft = {
      name: null,
      game_port: null,
      rcon_port: null,
      sections: {},
      rotation: [],
      mods: [],
      bans: { files: [], count: 0 },
      missions: [],
      files: [],
      unknown: [],
      refused: [],
      warnings: [],
    };
    const set = (section: string, field: string, value: unknown) => {
      draft.sections[section] = { ...(draft.sections[section] ?? {}), [field]: value };
    };
    const accept = (at: { file: string; line: number; key: string }, section: keyof typeof sections, field: string, raw: string) => {
      const properties: Record<string, TSchema> = sections[section].properties;
      const schema = properties[field];
      const value = coerce(raw, schema);
      const check = checkerOf(schema);
      if (check.Check(value)) return set(section, field, value);
      const shown = isSensitive(schema) ? 'the value' : JSON.stringify(raw.slice(0, 80));
      draft.refused.push({ ...at, reason: `${shown} does not fit ${field}: ${[...check.Errors(value)][0]?.message ?? 'refused'}` });
    };

    const exec = command.get('+exec');
    const named = source.config_path ?? (exec ? `cfg/${exec.endsWith('.cfg') ? exec : `${exec}.cfg`}` : null);
    const cfg = named
      ? files.readNamed(named, source.config_path ? 'config_path' : 'command_line')
      : files.readUsual('cfg/server.cfg', 'server.cfg');
    draft.files.push({ role: 'server.cfg', path: cfg?.path ?? files.join('cfg', 'server.cfg'), found: cfg !== null });
    let mapcycleFile = 'mapcycle.txt';
    if (cfg) {
      const extra: string[] = [];
      cfg.text.split(/\r\n?|\n/).forEach((line, index) => {
        const at = (key: string) => ({ file: cfg.path, line: index + 1, key });
        const statements = statementsOf(line);
        if (!statements.length) return;
        let kept = false;
        for (const s of statements) {
          const name = s.name.toLowerCase();
          if (s.unclosedQuote) draft.warnings.push(`${cfg.path} line ${index + 1}: a quote is not closed; read to the end of the line`);
          const target = CVAR_FIELDS[name];
          if (target) accept(at(s.name), target[0], target[1], s.value);
          else if (name === 'mapcyclefile') mapcycleFile = s.value || mapcycleFile;
          else if (MANAGED.has(name) || (name === 'exec' && /^banned_(user|ip)(\.cfg)?$/i.test(s.args[0] ?? ''))) {
            // What Garrison writes itself (log folder, ban lists): written again, in the server's own names.
          } else if (!kept) {
            kept = true;
            draft.unknown.push(at(s.name));
          }
        }
        // A line with something Garrison has no field for is kept whole, comment and all, if it may stay as an extra line.
        if (kept) {
          const problem = extraLinesProblem([line]);
          if (problem)
            draft.refused.push({ file: cfg.path, line: index + 1, key: statements[0].name, reason: problem.replace(/^line 1: /, '') });
          else extra.push(line.trim());
        }
      });
      if (extra.length) set('server', 'extra_lines', extra);
      const hostname = draft.sections.server?.hostname;
      if (typeof hostname === 'string' && hostname.trim()) draft.name = hostname.trim().slice(0, 100);
    } else draft.warnings.push('no server.cfg was found: the server section starts from the defaults, with a new RCon password');

    readCommandLine(command, draft, accept);
    readMapcycle(files, mapcycleFile, draft);
    readBans(files, draft);
    draft.missions = files.list('maps').filter((f) => f.toLowerCase().endsWith(MAP_EXTENSION));
    return draft;
  },
};

type Accept = (at: { file: string; line: number; key: string }, section: keyof typeof sections, field: string, raw: string) => void;

/** Port (RCON is on the game port, over TCP), player slots and the start map of the command line. */
function readCommandLine(command: Map<string, string>, draft: ImportDraft, accept: Accept): void {
  const port = command.get('-port') ?? command.get('+hostport');
  if (port === undefined) {
    draft.game_port = GAME_DEFAULT_PORT;
    draft.warnings.push(`no -port in the command line: the game's default port ${GAME_DEFAULT_PORT}`);
  } else if (/^\d+$/.test(port) && Number(port) >= 1024 && Number(port) <= 65535) draft.game_port = Number(port);
  else draft.refused.push({ file: COMMAND_LINE, line: 0, key: '-port', reason: `${JSON.stringify(port)} is no port from 1024 to 65535` });
  draft.rcon_port = draft.game_port;
  const slots = command.get('+maxplayers') ?? command.get('-maxplayers');
  if (slots !== undefined) accept({ file: COMMAND_LINE, line: 0, key: '+maxplayers' }, 'server', 'max_players', slots);
  const map = command.get('+map');
  if (map !== undefined) accept({ file: COMMAND_LINE, line: 0, key: '+map' }, 'mapcycle', 'start_map', map);
}

/** The map cycle: the file server.cfg names (`mapcyclefile`), beside the executable or in cfg/; one map a line. */
function readMapcycle(files: ImportFileAccess, name: string, draft: ImportDraft): void {
  const candidates = /[\\/]/.test(name) ? [name] : [name, `cfg/${name}`];
  let read: { path: string; text: string } | null = null;
  for (const candidate of candidates) {
    const inside = files.inside(files.resolve(candidate));
    if ('refused' in inside) {
      draft.refused.push({ file: 'server.cfg', line: 0, key: 'mapcyclefile', reason: inside.refused });
      break;
    }
    read = files.readUsual(candidate, 'mapcycle');
    if (read) break;
  }
  draft.files.push({ role: 'mapcycle', path: read?.path ?? files.resolve(candidates[0]), found: read !== null });
  if (!read) return;
  const maps: { name: string }[] = [];
  read.text.split(/\r\n?|\n/).forEach((line, index) => {
    const map = line.replace(/\/\/.*$/, '').trim();
    if (!map) return;
    const problem = mapNameProblem(map);
    if (problem) draft.refused.push({ file: read.path, line: index + 1, key: map.slice(0, 64), reason: problem });
    else maps.push({ name: map });
  });
  if (!maps.length) return;
  draft.sections.mapcycle = { ...(draft.sections.mapcycle ?? {}), maps };
  draft.rotation = maps.map((m) => ({ name: m.name, difficulty: '' }));
}

/** The ban lists, each taken over as it is to the server's list of its kind; the bans of both are counted. */
function readBans(files: ImportFileAccess, draft: ImportDraft): void {
  const now = new Date();
  for (const [name, kind] of [
    ['banned_user.cfg', 'STEAMID'],
    ['banned_ip.cfg', 'IP'],
  ] as const) {
    const read = files.readUsual(`cfg/${name}`, name);
    draft.files.push({ role: name, path: read?.path ?? files.join('cfg', name), found: read !== null });
    if (!read) continue;
    const count = read.text.split(/\r\n?|\n/).filter((line) => parseBanLine(line, now) !== null).length;
    draft.bans = { files: [...draft.bans.files, { file: read.path, kind }], count: draft.bans.count + count };
    if (kind === 'IP' && count) draft.warnings.push(`${read.path} holds ${count} address ban(s), taken over with the file`);
  }
}
