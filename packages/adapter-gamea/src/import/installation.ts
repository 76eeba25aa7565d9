import { dirname } from 'node:path';
import { ApiError, type ImportDraft, type ImportFileAccess, type ImportSource, type ServerImporter } from '@garrison/core';
import { sections } from '../config/sections.js';
import { modNameProblem } from '../mods.js';
import { parseBanLine } from '../bans.js';
import { IDENTITIES } from '../identities.js';
import { MISSION_EXTENSION } from '../missions.js';
import { readCfg, type CfgDocument, type IncludeReader } from './cfg-reader.js';
import { readBattlEyeCfg } from './battleye-cfg.js';
import { readStartCommand, type StartCommand } from './command-line.js';
import { importFile, type ImportedFile } from './map-file.js';
import { importBattlEye, importProfile } from './map-profile.js';
import { importLaunch } from './map-launch.js';

const COMMAND_LINE = 'command line';
/** Where the game listens without -port=. */
const GAME_DEFAULT_PORT = 2302;

/**
 * An installation that ran without Garrison, read into the plan of a Garrison server: server.cfg,
 * basic.cfg, the profile and BattlEye's config into their sections, ports, mods and the launch options
 * from the start command, the ban file, the missions. Every file through `files` (inside the game
 * folder, 1 MiB at most); a file that is not the game's syntax fails the import with its line and column,
 * and never with what the file says there: only a file that reads as the game's config gets into a plan.
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
    const param = (name: string) => {
      const value = command.parameters.get(name);
      return typeof value === 'string' && value.trim() ? value.trim() : null;
    };
    /** A file named in the request or the command line must be there; one in its usual place may not be. */
    const locate = (role: string, field: keyof ImportSource, fromCommand: string | null, usual: string) => {
      const named = source[field] ?? fromCommand;
      const read = named ? files.readNamed(named, source[field] ? field : 'command_line') : files.readUsual(usual, role);
      draft.files.push({ role, path: read?.path ?? (named ? files.resolve(named) : files.join(usual)), found: read !== null });
      return read;
    };

    const serverCfg = locate('server.cfg', 'config_path', param('config'), 'server.cfg');
    if (serverCfg) {
      const imported = importFile('server.cfg', parsed(serverCfg, files, draft), sections.server);
      merge(draft, 'server', imported);
      draft.rotation = imported.rotation;
      if (imported.rotation.length) draft.sections.server.missions = imported.rotation;
      if (typeof imported.values.hostname === 'string' && imported.values.hostname.trim())
        draft.name = imported.values.hostname.trim().slice(0, 100);
    }
    const basicCfg = locate('basic.cfg', 'basic_path', param('cfg'), 'basic.cfg');
    if (basicCfg) merge(draft, 'basic', importFile('basic.cfg', parsed(basicCfg, files, draft), sections.basic));

    const profiles = param('profiles') ?? '.';
    const profileName = param('name') ?? 'server';
    const profile = locate(
      'profile',
      'profile_path',
      null,
      `${profiles.replace(/\\/g, '/')}/Users/${profileName}/${profileName}.GameaProfile`,
    );
    if (profile) merge(draft, 'profile', importProfile(parsed(profile, files, draft), sections.profile));

    const launch = importLaunch(command, sections.launch);
    merge(draft, 'launch', launch);
    readPorts(command, draft);
    readMods(command, files, draft);
    readBattlEye(battlEyeFolder(files, param('bepath'), profiles), files, draft);
    draft.missions = files.list('mpmissions').filter((f) => f.toLowerCase().endsWith(MISSION_EXTENSION));
    if (!serverCfg) draft.warnings.push('no server.cfg was found: the server section starts from the defaults');
    return draft;
  },
};

/** A file read with the tolerant reader; anything that is not the game's syntax fails the import where it is. */
function parsed(read: { path: string; text: string }, files: ImportFileAccess, draft: ImportDraft): CfgDocument {
  const include: IncludeReader = (name, from) => {
    const target = files.inside(name.startsWith('/') || /^[A-Za-z]:/.test(name) ? name : `${dirname(from)}/${name.replace(/\\/g, '/')}`);
    if ('refused' in target) return { refused: `refused: ${target.refused}` };
    const included = files.readUsual(target.path, 'include');
    return included ? { file: included.path, text: included.text } : { refused: `${target.path} does not exist` };
  };
  const doc = readCfg(read.text, read.path, include);
  const syntax = doc.problems.filter((p) => p.kind === 'syntax');
  if (syntax.length) {
    const first = syntax[0];
    throw new ApiError('INVALID_CONFIG', `${first.file} line ${first.line}, column ${first.column}: ${first.message}`, {
      status: 400,
      extra: { file: first.file, line: first.line, column: first.column, problems: syntax.slice(0, 50).map(({ kind: _, ...p }) => p) },
    });
  }
  for (const p of doc.problems) {
    if (p.kind === 'include') draft.refused.push({ file: p.file, line: p.line, key: '#include', reason: p.message });
    else draft.warnings.push(`${p.file} line ${p.line}: ${p.message}`);
  }
  return doc;
}

function merge(draft: ImportDraft, section: string, imported: ImportedFile): void {
  const values: Record<string, unknown> = { ...(draft.sections[section] ?? {}), ...imported.values };
  if (imported.extraLines.length) values.extra_lines = imported.extraLines;
  draft.sections[section] = values;
  draft.unknown.push(...imported.unknown);
  draft.refused.push(...imported.refused);
}

function readPorts(command: StartCommand, draft: ImportDraft): void {
  const port = command.parameters.get('port');
  if (port === undefined) {
    draft.game_port = GAME_DEFAULT_PORT;
    draft.warnings.push(`no -port= in the command line: the game's default port ${GAME_DEFAULT_PORT}`);
    return;
  }
  const n = Number(port);
  if (Number.isInteger(n) && n >= 1024 && n <= 65535) draft.game_port = n;
  else draft.refused.push({ file: COMMAND_LINE, line: 0, key: '-port', reason: `${JSON.stringify(port)} is no port from 1024 to 65535` });
}

/** `-mod=` and `-serverMod=`: each a folder beside the executable, as Garrison keeps mods. */
function readMods(command: StartCommand, files: ImportFileAccess, draft: ImportDraft): void {
  const installed = new Set(files.list('.'));
  const seen = new Set<string>();
  for (const [names, isServerMod] of [
    [command.mods, false],
    [command.serverMods, true],
  ] as const) {
    for (const name of names) {
      const key = isServerMod ? '-serverMod' : '-mod';
      const problem = modNameProblem(name);
      if (problem) {
        draft.refused.push({ file: COMMAND_LINE, line: 0, key, reason: `${name} ${problem}` });
        continue;
      }
      if (seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      // The folder as the game finds it: a host that tells case apart has it only as written.
      const there = installed.has(name);
      if (!there)
        draft.warnings.push(
          `the mod ${name} of ${key} is not in the game folder: it is listed as missing and not enabled; install it, then ` +
            `enable it on the Mods tab`,
        );
      draft.mods.push({ name, is_server_mod: isServerMod, installed: there });
    }
  }
  const enabled = draft.mods.filter((m) => m.installed).map(({ name, is_server_mod }) => ({ name, is_server_mod }));
  if (enabled.length) draft.sections.launch = { ...(draft.sections.launch ?? {}), mods: enabled };
}

/** The folder named, its name in any case (`BattlEye`, `battleye`) as a Windows host finds it. */
function folderAnyCase(files: ImportFileAccess, path: string): string | null {
  const parts = path.replace(/\\/g, '/').replace(/\/+$/, '').split('/');
  const name = parts.pop()!;
  const parent = parts.join('/') || '.';
  if (name === '.' || name === '') return parent;
  const found = files.list(parent).find((n) => n.toLowerCase() === name.toLowerCase());
  return found === undefined ? null : parent === '.' ? found : `${parent}/${found}`;
}

/**
 * BattlEye's folder: `-bepath=`, or where BattlEye keeps it without one (beside the executable, or in the
 * profile folder), the first that holds a BattlEye config; names in any case.
 */
function battlEyeFolder(files: ImportFileAccess, bepath: string | null, profiles: string): string {
  const candidates = bepath ? [bepath] : ['battleye', `${profiles.replace(/\\/g, '/')}/battleye`];
  const found = candidates.map((c) => folderAnyCase(files, c)).filter((c): c is string => c !== null);
  return found.find((f) => files.list(f).some((n) => /^beserver(_x64)?(_active_.*)?\.cfg$/i.test(n))) ?? found[0] ?? candidates[0];
}

/**
 * BattlEye's folder: its config (the running one, `BEServer_x64_active_*.cfg`, which BattlEye renames the
 * file to, before the one written for it) and its ban file, names in any case.
 */
function readBattlEye(folder: string, files: ImportFileAccess, draft: ImportDraft): void {
  const names = files.list(folder);
  const pick = (test: (n: string) => boolean) => names.find((n) => test(n.toLowerCase()));
  const cfgName =
    pick((n) => /^beserver(_x64)?_active_.*\.cfg$/.test(n)) ?? pick((n) => n === 'beserver_x64.cfg') ?? pick((n) => n === 'beserver.cfg');
  const cfgPath = `${folder}/${cfgName ?? 'BEServer_x64.cfg'}`;
  const cfg = cfgName ? files.readUsual(cfgPath, 'bepath') : null;
  draft.files.push({ role: 'battleye config', path: cfg?.path ?? files.resolve(cfgPath), found: cfg !== null });
  if (cfg) {
    const { settings, problems } = readBattlEyeCfg(cfg.text);
    if (!settings.size && problems.length) {
      throw new ApiError(
        'INVALID_CONFIG',
        `${cfg.path} line ${problems[0].line}, column 1: not BattlEye's config: not one "Key value" line in it`,
        {
          status: 400,
          extra: {
            file: cfg.path,
            line: problems[0].line,
            column: 1,
            problems: problems.slice(0, 50).map((p) => ({ file: cfg.path, line: p.line, column: 1, message: p.message })),
          },
        },
      );
    }
    for (const p of problems) draft.warnings.push(`${cfg.path} line ${p.line}: ${p.message}`);
    const imported = importBattlEye(settings, cfg.path, sections.rcon);
    merge(draft, 'rcon', imported);
    draft.rcon_port = imported.rconPort;
  } else {
    draft.warnings.push('no BattlEye config was found: a new RCon password is made');
  }
  const bansName = pick((n) => n === 'bans.txt');
  const bans = bansName ? files.readUsual(`${folder}/${bansName}`, 'bepath') : null;
  draft.files.push({ role: 'bans', path: bans?.path ?? files.resolve(`${folder}/bans.txt`), found: bans !== null });
  // BattlEye's one file holds the GUID and the IP bans: named by the first kind, whose file is the same.
  if (bans) draft.bans = { files: [{ file: bans.path, kind: IDENTITIES[0].kind }], count: countBans(bans.text) };
}

/** How many bans a ban file holds (what the ban-file pass will take over as `source: file`). */
function countBans(text: string): number {
  const now = new Date();
  return text.split(/\r\n?|\n/).filter((line) => parseBanLine(line, now) !== null).length;
}
