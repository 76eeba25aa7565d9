import type { TObject } from '@garrison/core';
import { PROFILE_OPTIONS } from '../config/render.js';
import type { CfgClassNode, CfgDocument, CfgNode } from './cfg-reader.js';
import type { BattlEyeSetting } from './battleye-cfg.js';
import { fieldAcceptor, keptLines, type ImportedFile, type SettingAt } from './map-file.js';
import { extraLinesProblem } from '../config/extra-lines.js';
import { NESTED_LINES } from '../config/profile.js';

const OPTION_FIELDS = new Map(PROFILE_OPTIONS.map(([game, field]) => [game.toLowerCase(), field]));

/**
 * The server's profile (`<name>.GameaProfile`) into the profile section: its `difficulty` line, the
 * Custom difficulty's options and AI level from `DifficultyPresets` (with `CustomAILevel` beside
 * `CustomDifficulty`, or inside it as TADST writes it); what else the Custom difficulty holds
 * (`displayName`, `levelAI`, options Garrison has no field for) is kept as lines inside its class; the
 * other presets of that class are refused with their reason (Garrison writes the class whole); anything
 * else is kept as extra lines.
 */
export function importProfile(doc: CfgDocument, section: TObject): ImportedFile {
  const out: ImportedFile = { values: {}, unknown: [], extraLines: [], refused: [], rotation: [] };
  const accept = fieldAcceptor(section, out);
  for (const node of doc.entries) {
    if (node.kind === 'value' && node.key.toLowerCase() === 'difficulty' && !node.array) {
      accept({ file: node.file, line: node.line, key: node.key }, 'difficulty', node.value);
      continue;
    }
    if (node.kind === 'class' && node.name.toLowerCase() === 'difficultypresets') {
      for (const preset of node.entries) {
        const at = { file: preset.file, line: preset.line, key: `DifficultyPresets.${preset.kind === 'class' ? preset.name : preset.key}` };
        if (preset.kind === 'class' && preset.name.toLowerCase() === 'customdifficulty') readCustomDifficulty(preset, accept, out);
        else if (preset.kind === 'class' && preset.name.toLowerCase() === 'customailevel')
          readAILevel(preset, 'DifficultyPresets.CustomAILevel', accept, out);
        else
          out.refused.push({ ...at, reason: 'Garrison writes DifficultyPresets itself: only CustomDifficulty and CustomAILevel are read' });
      }
      continue;
    }
    const at = { file: node.file, line: node.line, key: node.kind === 'value' ? node.key : `class ${node.name}` };
    const kept = keptLines(node, (l) => extraLinesProblem('server.GameaProfile', l));
    if (typeof kept === 'string') out.refused.push({ ...at, reason: kept });
    else {
      out.unknown.push(at);
      out.extraLines.push(...kept.lines);
      for (const { node: n, key, reason } of kept.left) out.refused.push({ file: n.file, line: n.line, key, reason });
    }
  }
  return out;
}

/** `class CustomAILevel { skillAI = …; precisionAI = …; }` into its two fields; anything else in it is refused. */
function readAILevel(level: CfgClassNode, path: string, accept: ReturnType<typeof fieldAcceptor>, out: ImportedFile): void {
  for (const e of level.entries) {
    const at: SettingAt = { file: e.file, line: e.line, key: `${path}.${e.kind === 'value' ? e.key : e.name}` };
    const field =
      e.kind === 'value'
        ? ({ skillai: 'skill_ai', precisionai: 'precision_ai' } as Record<string, string>)[e.key.toLowerCase()]
        : undefined;
    if (e.kind === 'value' && field) accept(at, field, e.value);
    else out.refused.push({ ...at, reason: 'Garrison writes CustomAILevel itself: only skillAI and precisionAI are read' });
  }
}

function readCustomDifficulty(preset: CfgClassNode, accept: ReturnType<typeof fieldAcceptor>, out: ImportedFile): void {
  const path = 'DifficultyPresets.CustomDifficulty';
  const optionsLines: string[] = [];
  const customLines: string[] = [];
  for (const e of preset.entries) {
    const name = e.kind === 'value' ? e.key : e.name;
    const at: SettingAt = { file: e.file, line: e.line, key: `${path}.${name}` };
    if (e.kind === 'class' && name.toLowerCase() === 'options') {
      for (const o of e.entries) {
        const oat: SettingAt = { file: o.file, line: o.line, key: `${path}.Options.${o.kind === 'value' ? o.key : o.name}` };
        const field = o.kind === 'value' ? OPTION_FIELDS.get(o.key.toLowerCase()) : undefined;
        if (field && o.kind === 'value') accept(oat, field, o.value);
        else keepInside(o, oat, 'options_lines', optionsLines, out);
      }
    } else if (e.kind === 'value' && name.toLowerCase() === 'ailevelpreset') accept(at, 'ai_level_preset', e.value);
    else if (e.kind === 'class' && name.toLowerCase() === 'customailevel') readAILevel(e, `${path}.CustomAILevel`, accept, out);
    else keepInside(e, at, 'custom_difficulty_lines', customLines, out);
  }
  if (optionsLines.length) out.values.options_lines = optionsLines;
  if (customLines.length) out.values.custom_difficulty_lines = customLines;
}

/** A setting Garrison has no field for, inside a class it writes: kept as a line of that class. */
function keepInside(node: CfgNode, at: SettingAt, field: string, into: string[], out: ImportedFile): void {
  const managed = new Map(NESTED_LINES[field].managed.map((name) => [name.toLowerCase(), '']));
  const kept = keptLines(node, (l) => extraLinesProblem('server.GameaProfile', l, managed, field));
  if (typeof kept === 'string') return void out.refused.push({ ...at, reason: kept });
  into.push(...kept.lines);
  out.unknown.push(at);
  for (const { node: n, key, reason } of kept.left)
    out.refused.push({ file: n.file, line: n.line, key: `${at.key.slice(0, at.key.lastIndexOf('.') + 1)}${key}`, reason });
}

/** BattlEye's config into the rcon section, and the RCon port (kept on the server's record). */
export function importBattlEye(
  settings: Map<string, BattlEyeSetting>,
  file: string,
  section: TObject,
): ImportedFile & { rconPort: number | null } {
  const out: ImportedFile & { rconPort: number | null } = {
    values: {},
    unknown: [],
    extraLines: [],
    refused: [],
    rotation: [],
    rconPort: null,
  };
  const accept = fieldAcceptor(section, out);
  for (const [name, setting] of settings) {
    const at = { file, line: setting.line, key: setting.key };
    if (name === 'rconpassword') accept(at, 'rcon_password', setting.value);
    else if (name === 'maxping') accept(at, 'max_ping', setting.value);
    else if (name === 'rconport') {
      const port = Number(setting.value);
      if (Number.isInteger(port) && port >= 1024 && port <= 65535) out.rconPort = port;
      else out.refused.push({ ...at, reason: `${JSON.stringify(setting.value)} is no port from 1024 to 65535` });
      // RConIP and the like: Garrison writes BattlEye's config itself, and it has no extra lines.
    } else
      out.refused.push({
        ...at,
        reason: "Garrison writes BattlEye's config with RConPassword, RConPort and MaxPing only: this setting is not written",
      });
  }
  if (out.values.rcon_password) out.values.enabled = 1;
  return out;
}
