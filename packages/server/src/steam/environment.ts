/**
 * The environment SteamCMD runs with: not the service's, which holds what SteamCMD has no use for and must
 * not see (the database URL with its password, the signing secret's settings, any GARRISON_* value).
 * SteamCMD gets what finds programs and reads text, a home, and the variables named STEAMCMD_* (for a
 * wrapper around it; the testkit's fake reads its world from them).
 */

const KEPT = ['PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TZ', 'TMPDIR', 'USER', 'LOGNAME', 'TERM'];
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * `from`'s variables SteamCMD may have. HOME stays the service user's: SteamCMD keeps its own files there
 * (the distributions' wrapper installs itself under ~/.steam, and the machine's Steam Guard authorization
 * with it: another home would ask for a Guard code again); without one, the steam dir.
 */
export function steamcmdEnvironment(from: NodeJS.ProcessEnv, steamDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of KEPT) if (from[name] !== undefined) env[name] = from[name];
  for (const [name, value] of Object.entries(from)) if (name.startsWith('STEAMCMD_') && value !== undefined) env[name] = value;
  env.PATH ??= DEFAULT_PATH;
  env.HOME = from.HOME || steamDir;
  return env;
}
