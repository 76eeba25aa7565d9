import { ApiError, Type, type MissionName, type RotationOptions } from '@garrison/core';

export const MAP_EXTENSION = '.bsp';

/**
 * A map name as `changelevel`, `+map` and mapcycle.txt take it: one word of letters, digits and
 * `_ - . +`, beginning with a letter, a digit or `_`
 * (`de_dust2`, `ze_FFVII_Mako_Reactor_v5_3`, `cp_orange_x3`). Left out: spaces (the commands
 * take the name as one word), quotes and `;` (they end or split a command), path separators.
 */
const MAP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_\-.+]*$/;
const MAX_MAP_NAME = 64;
/** The same rule as a JSON Schema pattern, for the rotation kept in the config. */
export const MAP_NAME_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_\\-.+]{0,63}$';

/** Why a map name would not load or not stay one word, or null. */
export function mapNameProblem(name: string): string | null {
  if (!name) return 'a map name cannot be empty';
  if (name.length > MAX_MAP_NAME) return `a map name has at most ${MAX_MAP_NAME} characters`;
  if (/[\\/]/.test(name)) return `a map name cannot contain a path separator: ${JSON.stringify(name)}`;
  // A leading - or + would make `+map <name>` on the command line a switch or a command of its own.
  if (!MAP_NAME.test(name)) {
    return `a map name holds only letters, digits and _ - . + (no spaces), and begins with a letter, a digit or _: ${JSON.stringify(name)}`;
  }
  if (name.startsWith('.')) return `a map name cannot start with a dot: ${JSON.stringify(name)}`;
  return null;
}

/** `de_dust2.bsp` → `de_dust2`; maps have no parts besides the name. Throws `ADAPTER_ERROR` naming what is wrong. */
export function parseMapFilename(filename: string): MissionName {
  if (!filename.toLowerCase().endsWith(MAP_EXTENSION)) {
    throw new ApiError('ADAPTER_ERROR', `map files must end in ${MAP_EXTENSION}: ${JSON.stringify(filename)}`);
  }
  const name = filename.slice(0, -MAP_EXTENSION.length);
  const problem = mapNameProblem(name);
  if (problem) throw new ApiError('ADAPTER_ERROR', problem);
  return { name, parts: {} };
}

/** A map cycle entry is a name and nothing else. */
export const rotationOptions: RotationOptions = {
  schema: Type.Object({}, { additionalProperties: false }),
  normalize(options) {
    const names = Object.keys(options).filter((k) => options[k] !== undefined && options[k] !== '');
    return names.length ? `a map cycle entry has no options besides its name (not ${names.join(', ')})` : {};
  },
};
