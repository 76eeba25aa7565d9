import { Type, type Static } from '../typebox.js';
import { Nullable, Timestamp } from './common.js';

/**
 * The Steam account SteamCMD logs in with, and the dedicated server's install through it. Their meaning
 * is in docs/workshop.md (every core schema ships in the console's first load: descriptions stay short).
 */
/** Steam's rules, declared once: the API checks them, and the SteamCMD runner again before a value reaches its command line. */
export const STEAM_USERNAME_PATTERN = '^[A-Za-z0-9_]{1,64}$';
/** Five letters or digits (mail), or the app's five characters. */
export const STEAM_GUARD_CODE_PATTERN = '^[A-Za-z0-9]{5,8}$';
/** Letters, digits, `.`, `_`, `-`, not starting with a sign SteamCMD would read. */
export const STEAM_BRANCH_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
/**
 * A password (the account's, a branch's): anything but a leading `+` (SteamCMD's command), a control
 * character (a line break ends a runscript's command) or a double quote (its quoting cannot escape one).
 */
export const STEAM_SECRET_PATTERN = '^(?!\\+)[^\\u0000-\\u001f\\u007f"]+$';

export const SteamAccountUpdate = Type.Object(
  {
    username: Type.String({ maxLength: 64, pattern: STEAM_USERNAME_PATTERN }),
    password: Type.String({ minLength: 1, maxLength: 256, pattern: STEAM_SECRET_PATTERN }),
    guard_code: Type.Optional(Type.String({ pattern: STEAM_GUARD_CODE_PATTERN })),
  },
  { additionalProperties: false },
);
export type SteamAccountUpdate = Static<typeof SteamAccountUpdate>;

/** Never the password: whether one is set, and whether a Guard code waits for the next login. */
export const SteamAccount = Type.Object(
  { username: Type.String(), password_set: Type.Boolean(), guard_code_pending: Type.Boolean(), updated_at: Timestamp },
  { $id: 'SteamAccount' },
);
export type SteamAccount = Static<typeof SteamAccount>;

export const InstallRequest = Type.Object(
  {
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: STEAM_BRANCH_PATTERN })),
    branch_password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, pattern: STEAM_SECRET_PATTERN })),
  },
  { additionalProperties: false },
);
export type InstallRequest = Static<typeof InstallRequest>;

export const JobQueued = Type.Object({ job_id: Type.Integer() }, { $id: 'JobQueued' });

/** What is installed (from its app manifest) and whether Steam has a newer build of that branch (null: unknown). */
export const InstallState = Type.Object(
  {
    build_id: Nullable(Type.String()),
    branch: Nullable(Type.String()),
    installed_at: Nullable(Timestamp),
    update_available: Nullable(Type.Boolean()),
  },
  { $id: 'InstallState' },
);
export type InstallState = Static<typeof InstallState>;
