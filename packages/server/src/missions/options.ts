import { ApiError, TypeCompiler, type MissionManager, type TObject, type TypeCheck } from '@garrison/core';

/** Where an option was sent, as a refusal names it: `missions[0].<option>` of a rotation, `field '<option>'` of a play. */
export interface OptionsAt {
  /** The problem's place: an option's, or the entry's when the game's message names none. */
  problem(option: string | null): string;
  /** The option's path, as the request validator names an unknown field (`missions.0.size`). */
  path(option: string): string;
}

const checks = new WeakMap<TObject, TypeCheck<TObject>>();

/**
 * The options sent beside a mission's name (a rotation entry's, a play's) in their stored form, by the
 * game's rotation options: an option the game does not have, or a value it does not take, is 400
 * `VALIDATION_ERROR` saying where it was sent.
 */
export function rotationOptionsOf(manager: MissionManager, sent: Record<string, unknown>, at: OptionsAt): Record<string, string> {
  const { schema, normalize } = manager.rotationOptions;
  const unknown = Object.keys(sent).find((option) => !Object.hasOwn(schema.properties, option));
  if (unknown !== undefined) throw new ApiError('VALIDATION_ERROR', `unknown field '${at.path(unknown)}'`);
  const normalized = normalize(sent);
  if (typeof normalized === 'string') {
    // The game's message starts with the option it is about (`<option>: …`): said where that option was sent.
    const named = /^([^\s:]+): ([\s\S]*)$/.exec(normalized);
    const option = named && Object.hasOwn(schema.properties, named[1]) ? named[1] : null;
    throw new ApiError('VALIDATION_ERROR', `${at.problem(option)}: ${option ? named![2] : normalized}`);
  }
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = TypeCompiler.Compile(schema)));
  // What the game stores must be what its schema says: anything else is the adapter's mistake, not the request's.
  if (!check.Check(normalized))
    throw new Error(`the game's rotation options gave ${JSON.stringify(normalized)}, which their schema refuses`);
  return normalized;
}

/** An entry's options: everything sent but its name. */
export function optionsSent(entry: { name: string }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'name'));
}

/** A mission with the values of the options it has, as people read it (`name (value, value)`), whatever the game's options are. */
export function missionWithOptions(name: string, options: Record<string, string | undefined>): string {
  const shown = Object.values(options).filter(Boolean).join(', ');
  return shown ? `${name} (${shown})` : name;
}
