/**
 * A mod folder's name, as communities name them (`@CUP Terrains - Core`, `@VULTURE[Tech Mod]`,
 * `@ace.x64`) and as the game's `-mod=` list can carry them: `@` first; no `;` (it separates the mods of
 * the list); no path separator; none of the characters Windows refuses in a folder name; no control
 * character; no space at either end (Windows drops it, so no folder has one).
 */
const FORBIDDEN = ';/\\\\:*?"<>|\\x00-\\x1f\\x7f';
export const MOD_FOLDER_PATTERN = `^@[^${FORBIDDEN}\\s]([^${FORBIDDEN}]*[^${FORBIDDEN}\\s])?$`;
export const MAX_MOD_NAME = 200;

const REASONS: [RegExp, string][] = [
  [/;/, 'cannot contain ";": it separates the mods of the -mod= list'],
  [/[/\\]/, 'cannot contain a path separator: a mod is one folder beside the executable'],
  [/[:*?"<>|]/, 'cannot contain any of : * ? " < > |, which no folder name can hold'],
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern is for
  [/[\x00-\x1f\x7f]/, 'cannot contain a control character'],
  [/^@\s|\s$/, 'cannot begin or end with a space'],
];

/** Why a name cannot be an enabled mod folder, or null when it can. */
export function modNameProblem(name: string): string | null {
  if (!name.startsWith('@') || name.length < 2) return 'must be a mod folder name, which starts with "@"';
  if (name.length > MAX_MOD_NAME) return `has at most ${MAX_MOD_NAME} characters`;
  return REASONS.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}
