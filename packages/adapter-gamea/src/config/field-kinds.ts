import { Field, Type } from '@garrison/core';
import { MAX_MISSION_NAME, MISSION_NAME_PATTERN, RotationDifficulty } from '../missions.js';

/**
 * The gamea dedicated server's settings, grouped as the spec's five sections. Field names are the
 * spec's snake_case; render.ts maps them onto the game's own keys. Defaults follow the game's
 * documented defaults except where the spec's samples say otherwise.
 */

export const RotationEntry = Type.Object(
  {
    name: Type.String({ minLength: 3, maxLength: MAX_MISSION_NAME, pattern: MISSION_NAME_PATTERN }),
    difficulty: RotationDifficulty,
  },
  { additionalProperties: false },
);

export const script = (label: string, def = '', description?: string) =>
  Field.text({ label, description, default: def, maxLength: 1024, placeholder: 'kick (_this select 0)' });
export const seconds = (label: string, def: number, description?: string, max = 3600) =>
  Field.integer({ label, description, unit: 's', default: def, min: 0, max });
export const awareness = (label: string, def: number, description?: string) =>
  Field.numberedSelect({ label, description, default: def, choices: ['Never', 'Limited distance', 'Always'] });
export const fadeAlways = (label: string, def: number, description?: string) =>
  Field.numberedSelect({ label, description, default: def, choices: ['Never', 'Fade out', 'Always'] });
export const kickTimeout = (label: string, def: number, description?: string) =>
  Field.integer({ label, description, default: def, min: -2, max: 86_400 });
export const extensions = (label: string, description?: string) =>
  Field.tags({ label, description, default: [], itemPattern: '^[A-Za-z0-9]{1,16}$', maxItems: 100 });
/**
 * Keys an imported file wrote with the value Garrison otherwise leaves out (`missionWhitelist[] = {};`,
 * `missionsToShutdown = 0;`): written even then, so that the file says what the original said.
 */
export const writtenWhenEmpty = Field.hidden(Type.Array(Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), { maxItems: 100 }), {
  label: 'Keys written even when empty',
  default: [],
});
/** Raw lines for what Garrison has no field for, appended to the file as written (checked first, see extra-lines.ts). */
export const extraLines = (file: string) =>
  Field.lines({
    label: `Extra lines for ${file}`,
    description:
      `Written at the end of ${file} as they are: settings Garrison has no field for, in the game's syntax (key = value;). A ` +
      `key Garrison writes itself is refused: use its field.`,
    placeholder: 'allowedVoteCmds[] = {};',
    default: [],
    maxItems: 500,
  });
