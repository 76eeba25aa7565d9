import { Type, Value, type Static } from '../typebox.js';
import { Nullable } from '../schemas/common.js';

const AppId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** One branch (beta) of the dedicated server's Steam app. */
export const SteamBranch = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    password_required: Type.Boolean(),
    description: Type.String({ maxLength: 500 }),
  },
  { additionalProperties: false },
);

/**
 * What a game's adapter declares of its Steam apps, so that the service can install and update the
 * dedicated server and its Workshop mods with SteamCMD knowing no game: the apps, the branches, whether
 * an anonymous login may fetch the server, and how the game finds mods and their signing keys on disk.
 * Optional: a game without it is not installed through Steam.
 */
export const SteamDeclaration = Type.Object(
  {
    server_app_id: AppId,
    workshop_app_id: Nullable(AppId),
    anonymous_server: Type.Boolean(),
    branches: Type.Array(SteamBranch, { minItems: 1, maxItems: 50 }),
    mod_folder_prefix: Type.String({ maxLength: 8, pattern: '^[@A-Za-z0-9_-]*$' }),
    key_file_extension: Nullable(Type.String({ minLength: 2, maxLength: 16, pattern: '^\\.[A-Za-z0-9]+$' })),
    keys_folder: Nullable(Type.String({ minLength: 1, maxLength: 64, pattern: '^(?!\\.\\.?$)[A-Za-z0-9._-]+$' })),
    protected_keys: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100 }),
    lower_case_on_linux: Type.Boolean(),
  },
  // What each member means: docs/adapters.md (descriptions here would weigh on the console's first load).
  { $id: 'SteamDeclaration', additionalProperties: false },
);
export type SteamDeclaration = Static<typeof SteamDeclaration>;

/**
 * Why a declaration is not usable (its first fault, or one the schema cannot see), or null: checked
 * by the conformance suite so that the service never meets a malformed one.
 */
export function steamDeclarationProblem(value: unknown): string | null {
  const error = Value.Errors(SteamDeclaration, value).First();
  if (error) return `steam${error.path.replace(/\//g, '.')}: ${error.message}`;
  const steam = value as SteamDeclaration;
  const names = steam.branches.map((b) => b.name);
  if (new Set(names).size !== names.length) return 'steam.branches: a branch is named twice';
  if ((steam.key_file_extension === null) !== (steam.keys_folder === null))
    return 'steam: key_file_extension and keys_folder are given together, or both null';
  if (steam.keys_folder === null && steam.protected_keys.length) return 'steam.protected_keys: keys without a keys_folder';
  return null;
}
