import type { TObject } from '@garrison/core';
import { PROFILE_OPTIONS } from '../config/render.js';
import type { CfgClassNode, CfgDocument, CfgNode } from './cfg-reader.js';
import type { BattlEyeSetting } from './battleye-cfg.js';
import { fieldAcceptor, written, type ImportedFile, type SettingAt } from './map-file.js';

const OPTION_FIELDS = new Map(PROFILE_OPTIONS.map(([game, field]) => [game.toLowerCase(), field]));
const classIn = (entries: CfgNode[], name: string) => entries.find((e): e is CfgClassNode => e.kind === 'class' && e.name.toLowerCase() === name.toLowerCase());

/**
 * The server's profile (`<name>.GameaProfile`) into the profile section: Garrison writes the Custom
 * difficulty, so its options and AI level are read from `DifficultyPresets`; the other presets in that
 * class are reported (Garrison writes the class whole), anything else is kept as extra lines.
 */
export function importProfile(doc: CfgDocument, section: TObject): ImportedFile {
  const out: ImportedFile = { values: {}, unknown: [], extraLines: [], refused: [], rotation: [] };
  const accept = fieldAcceptor(section, out);
  for (const node of doc.entries) {
    if (node.kind === 'value' && node.key.toLowerCase() === 'difficulty') continue; // Garrison writes Custom
    if (node.kind === 'class' && node.name.toLowerCase() === 'difficultypresets') {
      for (const preset of node.entries) {
        const at = { file: preset.file, line: preset.line, key: `DifficultyPresets.${preset.kind === 'class' ? preset.name : preset.key}` };
        if (preset.kind === 'class' && preset.name.toLowerCase() === 'customdifficulty') readCustomDifficulty(preset, accept, out);
        else if (preset.kind === 'class' && preset.name.toLowerCase() === 'customailevel') {
          for (const e of preset.entries) {
            const field = e.kind === 'value' ? ({ skillai: 'skill_ai', precisionai: 'precision_ai' } as Record<string, string>)[e.key.toLowerCase()] : undefined;
            if (e.kind === 'value' && field) accept({ file: e.file, line: e.line, key: `CustomAILevel.${e.key}` }, field, e.value);
          }
        } else out.refused.push({ ...at, reason: 'Garrison writes DifficultyPresets itself: only CustomDifficulty and CustomAILevel are read' });
      }
      continue;
    }
    out.unknown.push({ file: node.file, line: node.line, key: node.kind === 'value' ? node.key : `class ${node.name}` });
    out.extraLines.push(...written(node).toString().trimEnd().split('\n'));
  }
  return out;
}

function readCustomDifficulty(preset: CfgClassNode, accept: ReturnType<typeof fieldAcceptor>, out: ImportedFile): void {
  for (const e of classIn(preset.entries, 'Options')?.entries ?? []) {
    const at: SettingAt = { file: e.file, line: e.line, key: `Options.${e.kind === 'value' ? e.key : e.name}` };
    const field = e.kind === 'value' ? OPTION_FIELDS.get(e.key.toLowerCase()) : undefined;
    if (field && e.kind === 'value') accept(at, field, e.value);
    else out.refused.push({ ...at, reason: 'no field for this difficulty option' });
  }
  const level = preset.entries.find((e) => e.kind === 'value' && e.key.toLowerCase() === 'ailevelpreset');
  if (level?.kind === 'value') accept({ file: level.file, line: level.line, key: 'aiLevelPreset' }, 'ai_level_preset', level.value);
}

/** BattlEye's config into the rcon section, and the RCon port (kept on the server's record). */
export function importBattlEye(settings: Map<string, BattlEyeSetting>, file: string, section: TObject): ImportedFile & { rconPort: number | null } {
  const out: ImportedFile & { rconPort: number | null } = { values: {}, unknown: [], extraLines: [], refused: [], rotation: [], rconPort: null };
  const accept = fieldAcceptor(section, out);
  for (const [name, setting] of settings) {
    const at = { file, line: setting.line, key: setting.key };
    if (name === 'rconpassword') accept(at, 'rcon_password', setting.value);
    else if (name === 'maxping') accept(at, 'max_ping', setting.value);
    else if (name === 'rconport') {
      const port = Number(setting.value);
      if (Number.isInteger(port) && port >= 1024 && port <= 65535) out.rconPort = port;
      else out.refused.push({ ...at, reason: `${JSON.stringify(setting.value)} is no port from 1024 to 65535` });
    } else out.unknown.push(at); // RConIP and the like: Garrison's RCon listens where BattlEye's default puts it
  }
  if (out.values.rcon_password) out.values.enabled = 1;
  return out;
}
