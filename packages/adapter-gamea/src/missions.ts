import { ApiError, Type, type MissionName, type RotationOptions } from '@garrison/core';

export const MISSION_EXTENSION = '.pbo';

/**
 * The characters a mission name may hold: what the game loads and what communities use
 * (`[55-2hc]warfare_v2.chernarus`, `CPC-TRAINING[10]-Mare.tanoa`, `Liberation(1.0)+ACE.Altis`). Left
 * out, each for a reason: spaces (`#mission` takes the name as one word), quotes `"` (they end the
 * string in server.cfg), path separators `/` `\`, the characters Windows refuses in a file name
 * (`: * ? < > |`), and control characters.
 */
const MISSION_NAME_CHARACTERS = "A-Za-z0-9_\\-.\\[\\]()'+,!&@#~=";
const ALLOWED = new RegExp(`^[${MISSION_NAME_CHARACTERS}]$`);
export const MAX_MISSION_NAME = 200;

/** The same rule as a JSON Schema pattern, for the rotation kept in the config. */
export const MISSION_NAME_PATTERN = `^[${MISSION_NAME_CHARACTERS}]+\\.[${MISSION_NAME_CHARACTERS}]+$`;

const shown = (c: string) =>
  /^[\x21-\x7e]$/.test(c)
    ? JSON.stringify(c)
    : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` +
      (c.trim() ? ` ${JSON.stringify(c)}` : ' (a space or control character)');

/**
 * A mission's name (`<name>.<Terrain>`, the file name without `.pbo`): the one rule for uploads, the
 * listing, the rotation, `#mission` and deletes. Throws `ADAPTER_ERROR` naming what is wrong.
 */
export function parseMissionName(name: string): MissionName {
  const bad = [...name].find((c) => !ALLOWED.test(c));
  if (bad !== undefined) throw new ApiError('ADAPTER_ERROR', `a mission name cannot contain ${shown(bad)}: ${JSON.stringify(name)}`);
  if (name.length > MAX_MISSION_NAME) throw new ApiError('ADAPTER_ERROR', `a mission name has at most ${MAX_MISSION_NAME} characters`);
  if (name.startsWith('.')) throw new ApiError('ADAPTER_ERROR', `a mission name cannot start with a dot: ${JSON.stringify(name)}`);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) {
    throw new ApiError('ADAPTER_ERROR', `a mission name needs a terrain part, as in name.Terrain: ${JSON.stringify(name)}`);
  }
  const terrain = name.slice(dot + 1);
  // `mission_v2.0.pbo`: the game reads what follows the last dot as the terrain, here `0`.
  const warning = /^v?\d+$/i.test(terrain)
    ? `the game reads the terrain of ${name} as "${terrain}", which looks like a version number: a mission file is named ` +
      `<mission>.<Terrain>${MISSION_EXTENSION} (mission_v2.Altis${MISSION_EXTENSION})`
    : undefined;
  return { name, parts: { terrain }, ...(warning ? { warning } : {}) };
}

/** `co10_Escape.Altis.pbo` → name `co10_Escape.Altis`, terrain `Altis`; the terrain is the last part before `.pbo`. */
export function parseMissionFilename(filename: string): MissionName {
  if (!filename.toLowerCase().endsWith(MISSION_EXTENSION)) {
    throw new ApiError('ADAPTER_ERROR', `mission files must end in ${MISSION_EXTENSION}: ${filename}`);
  }
  return parseMissionName(filename.slice(0, -MISSION_EXTENSION.length));
}

/** The game's difficulties as its configs and `#mission` name them: the one list (sections, rotation, import, render). */
export const DIFFICULTIES = ['Recruit', 'Regular', 'Veteran', 'Custom'] as const;
/** A rotation entry's difficulty: one of them, or `""` for the server's own. */
const ROTATION_DIFFICULTIES = ['', ...DIFFICULTIES] as const;
export type RotationDifficulty = (typeof ROTATION_DIFFICULTIES)[number];
/** The difficulties as a sentence names them: `Recruit, Regular, Veteran or Custom`. */
export const DIFFICULTY_NAMES = `${DIFFICULTIES.slice(0, -1).join(', ')} or ${DIFFICULTIES[DIFFICULTIES.length - 1]}`;
const difficultyOf = (options?: { description: string }) =>
  Type.Union(
    ROTATION_DIFFICULTIES.map((d) => Type.Literal(d)),
    options,
  );
/** A rotation entry's difficulty as the config keeps it. */
export const RotationDifficulty = difficultyOf();

/** A difficulty as configs write it (`regular`, `VETERAN`) in its stored form, `''` when absent; null when it is none. */
function canonicalDifficulty(value: string | undefined): RotationDifficulty | null {
  if (value === undefined) return '';
  return ROTATION_DIFFICULTIES.find((d) => d.toLowerCase() === value.trim().toLowerCase()) ?? null;
}

/** A rotation entry's one option, its difficulty: read in any case, stored capitalised, `""` when left out. */
export const rotationOptions: RotationOptions = {
  schema: Type.Object(
    {
      difficulty: Type.Optional(
        difficultyOf({ description: `\`""\` (the server's own), ${DIFFICULTY_NAMES}; sent in any case, stored capitalised.` }),
      ),
    },
    { additionalProperties: false },
  ),
  normalize(options) {
    const sent = options.difficulty;
    const difficulty = sent === undefined || typeof sent === 'string' ? canonicalDifficulty(sent) : null;
    if (difficulty === null) {
      const values = ROTATION_DIFFICULTIES.map((d) => JSON.stringify(d)).join(', ');
      return `difficulty: ${JSON.stringify(sent)} is none of ${values} (in any case)`;
    }
    return { difficulty };
  },
};
