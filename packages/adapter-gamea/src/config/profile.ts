import type { ClassBlock, Key, Section } from './render.js';

/** The Custom difficulty's options in the profile: game key → field. */
export const PROFILE_OPTIONS: [game: string, field: string][] = [
  ['reducedDamage', 'reduced_damage'],
  ['groupIndicators', 'group_indicators'],
  ['friendlyTags', 'friendly_tags'],
  ['enemyTags', 'enemy_tags'],
  ['detectedMines', 'detected_mines'],
  ['commands', 'commands'],
  ['waypoints', 'waypoints'],
  ['tacticalPing', 'tactical_ping'],
  ['weaponInfo', 'weapon_info'],
  ['stanceIndicator', 'stance_indicator'],
  ['staminaBar', 'stamina_bar'],
  ['weaponCrosshair', 'weapon_crosshair'],
  ['visionAid', 'vision_aid'],
  ['thirdPersonView', 'third_person_view'],
  ['cameraShake', 'camera_shake'],
  ['scoreTable', 'score_table'],
  ['deathMessages', 'death_messages'],
  ['vonID', 'von_id'],
  ['mapContent', 'map_content'],
  ['autoReport', 'auto_report'],
  ['multipleSaves', 'multiple_saves'],
];

/**
 * Lines kept as they are inside a class Garrison writes (what an imported profile had there beyond
 * Garrison's fields): the field holding them, and the names inside that class Garrison writes itself,
 * which they may not set (the game would find them twice).
 */
export const NESTED_LINES: Record<string, { file: 'server.GameaProfile'; inside: string; managed: string[] }> = {
  custom_difficulty_lines: {
    file: 'server.GameaProfile',
    inside: 'DifficultyPresets.CustomDifficulty',
    managed: ['Options', 'aiLevelPreset', 'CustomAILevel'],
  },
  options_lines: {
    file: 'server.GameaProfile',
    inside: 'DifficultyPresets.CustomDifficulty.Options',
    managed: PROFILE_OPTIONS.map(([game]) => game),
  },
};

const num = (s: Section, k: string) => s[k] as number;
const lines = (s: Section, k: string) => (s[k] as string[] | undefined) ?? [];

/** The profile's own `difficulty` line (Custom unless an imported profile said otherwise); the presets below are the Custom one. */
export const PROFILE_KEYS: Key[] = [
  { key: 'difficulty', fields: ['difficulty'], value: (s) => (s.difficulty as string | undefined) || 'Custom' },
];
export const PROFILE_CLASSES: ClassBlock[] = [
  {
    className: 'DifficultyPresets',
    fields: [...PROFILE_OPTIONS.map(([, f]) => f), 'ai_level_preset', 'skill_ai', 'precision_ai', ...Object.keys(NESTED_LINES)],
    write: (w, s) => {
      w.open('DifficultyPresets').open('CustomDifficulty').open('Options');
      for (const [game, field] of PROFILE_OPTIONS) w.set(game, num(s, field));
      w.verbatim(lines(s, 'options_lines'));
      w.close().set('aiLevelPreset', num(s, 'ai_level_preset'));
      w.verbatim(lines(s, 'custom_difficulty_lines')).close();
      w.open('CustomAILevel').set('skillAI', num(s, 'skill_ai')).set('precisionAI', num(s, 'precision_ai')).close();
      w.close();
    },
  },
];
