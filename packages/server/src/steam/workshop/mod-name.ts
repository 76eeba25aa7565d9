/** The longest mod folder name made, its prefix included. */
const MAX_FOLDER_LENGTH = 64;

/**
 * A folder name a game and a shell take as it is: `<prefix><name>` of letters, digits, `_`, `-` and `.`
 * (every other run of characters one `_`), no `..`, no dot or `_` at either end, at most 64 characters
 * with the prefix; the id when nothing of the name is left.
 */
export function safeFolderName(name: string, prefix: string, fallback: string, lowerCase: boolean): string {
  let safe = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // é → e: the accents NFKD split off
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/_{2,}/g, '_')
    .slice(0, MAX_FOLDER_LENGTH - prefix.length)
    .replace(/^[._-]+|[._]+$/g, '');
  if (!safe) safe = fallback;
  const folder = `${prefix}${safe}`;
  return lowerCase ? folder.toLowerCase() : folder;
}

/** `folder` with `_<id>` at its end, still within 64 characters: the name when the plain one is taken. */
export function suffixed(folder: string, workshopId: string): string {
  const suffix = `_${workshopId}`;
  return `${folder.slice(0, MAX_FOLDER_LENGTH - suffix.length).replace(/[._]+$/, '')}${suffix}`;
}
