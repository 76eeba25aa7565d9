import { ApiError } from '@garrison/core';

/**
 * The folders SteamCMD is given (`+force_install_dir`: a server's installation, GARRISON_STEAM_DIR).
 * SteamCMD joins its arguments into one command line and reads it again with its own quoting, which has
 * no escape: a `"` ends the value, `;` and a line break end the command, a space splits the path. So a
 * folder is taken only when it is plain: ASCII letters, digits, `_`, `-`, `.` and the separators (a
 * drive letter on Windows). Checked when a request would make SteamCMD use it, not when the job runs.
 */

const PLAIN_POSIX = /^(\/[A-Za-z0-9_.-]+)*\/?$/;
const PLAIN_WINDOWS = /^[A-Za-z]:([\\/][A-Za-z0-9_.-]+)*[\\/]?$/;
/** With spaces inside a name (`Game 3 Server`, Steam's own folder names): for a folder only ever written in the runscript, quoted. */
const QUOTED_POSIX = /^(\/[A-Za-z0-9_.-]+( [A-Za-z0-9_.-]+)*)*\/?$/;
const QUOTED_WINDOWS = /^[A-Za-z]:([\\/][A-Za-z0-9_.-]+( [A-Za-z0-9_.-]+)*)*[\\/]?$/;

/**
 * Why SteamCMD cannot be given `folder` (an absolute path), or null when it can. `quoted`: the folder goes
 * only into the runscript, where every value is in double quotes, so a name may hold single spaces; a
 * folder on SteamCMD's own command line (the steam dir, where the runscript lies) may not, as SteamCMD
 * splits that line again at spaces.
 */
export function steamFolderProblem(folder: string, platform: NodeJS.Platform = process.platform, quoted = false): string | null {
  if (folder === '') return 'is empty';
  const plain = platform === 'win32' ? (quoted ? QUOTED_WINDOWS : PLAIN_WINDOWS) : quoted ? QUOTED_POSIX : PLAIN_POSIX;
  if (plain.test(folder)) return null;
  const odd = [...folder].find((c) => !/[A-Za-z0-9_.\-/\\:]/.test(c) && !(quoted && c === ' '));
  const named = odd === undefined ? 'a character' : odd.trim() === '' ? 'a space or line break' : `${JSON.stringify(odd)}`;
  return (
    `holds ${named}: a folder SteamCMD is given may hold only letters (A-Z), digits, _, -, .` +
    `${quoted ? ', single spaces inside a name' : ''} and ` +
    `${platform === 'win32' ? '\\ after its drive' : '/'} (SteamCMD's command line has no way to quote anything else)`
  );
}

/**
 * Throws 400 VALIDATION_ERROR when SteamCMD cannot be given `folder`. `what` names it and `fix` says how
 * to change it (the message names the folder; it holds no secret).
 */
export function assertSteamFolder(what: string, folder: string, fix: string, quoted = false): void {
  const problem = steamFolderProblem(folder, process.platform, quoted);
  if (problem !== null) throw new ApiError('VALIDATION_ERROR', `${what} ${JSON.stringify(folder)} ${problem}; ${fix}`);
}
