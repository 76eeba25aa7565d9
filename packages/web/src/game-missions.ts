import { humanise } from './format.js';

/*
 * A game's missions as the console reads them, knowing no game: the parts of a mission's name the API
 * lists beside it, and the options of a rotation entry besides its name as the game declares them in
 * JSON Schema (each a choice among its values, an enum or a union of constants, or free text).
 */

interface JsonSchema {
  title?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** One option of a rotation entry besides its name: its values to choose from, or null for free text. */
export interface RotationOption {
  key: string;
  label: string;
  values: string[] | null;
  /** What a new entry gets. */
  initial: string | undefined;
  /** An optional option none of whose values is empty: offered empty too, and then left out of the entry sent. */
  emptyIsUnset: boolean;
}

/** The values a JSON Schema allows: its `enum`, or the `const` of each member of its `anyOf`/`oneOf`; null when any. */
function valuesOf(schema: JsonSchema): string[] | null {
  if (schema.enum) return schema.enum.map(String);
  const members = schema.anyOf ?? schema.oneOf;
  if (members?.every((m) => m.const !== undefined)) return members.map((m) => String(m.const));
  return null;
}

/** The options of a rotation entry the game declares (`GET /games/{game}`: missions.rotation_options), in its order. */
export function rotationOptionsOf(rotationOptions: object | undefined): RotationOption[] {
  // Any JSON Schema object, as the API types it: read as the parts of one this needs.
  const schema: JsonSchema = { ...rotationOptions };
  return Object.entries(schema.properties ?? {}).map(([key, option]) => {
    const declared = valuesOf(option);
    const emptyIsUnset = !schema.required?.includes(key) && declared !== null && !declared.includes('');
    const values = emptyIsUnset && declared ? ['', ...declared] : declared;
    const initial = option.default !== undefined ? String(option.default) : values?.includes('') ? '' : undefined;
    return { key, label: option.title ?? humanise(key), values, initial, emptyIsUnset };
  });
}

/** A rotation entry as the service takes it: an option left empty that the game has no empty value for is left out. */
export const entryToSend = <E extends Record<string, string>>(entry: E, options: readonly RotationOption[]): E =>
  Object.fromEntries(
    Object.entries(entry).filter(([key, value]) => !(value === '' && options.some((o) => o.key === key && o.emptyIsUnset))),
  ) as E;

/** An option's value as a list shows it: the empty value is the game's own default. */
export const optionText = (value: string): string => value || 'Default';

/** A mission file's fields that are no part of its name. */
const MISSION_FILE_FIELDS = ['name', 'filename', 'size_bytes', 'warning', 'parts'];

/**
 * What a mission file's name carries besides its name, part → value: the string fields the API lists
 * beside the name, and those of a `parts` object where it has one.
 */
export function partsOf(mission: object): Record<string, string> {
  const { parts } = mission as { parts?: unknown };
  const nested = parts && typeof parts === 'object' ? Object.entries(parts) : [];
  return Object.fromEntries(
    [...Object.entries(mission).filter(([key]) => !MISSION_FILE_FIELDS.includes(key)), ...nested].filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** The parts any of these missions has, in the order first seen: a column each. */
export const missionParts = (missions: readonly object[]): string[] => [...new Set(missions.flatMap((m) => Object.keys(partsOf(m))))];
