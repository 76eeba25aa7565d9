import { Type } from '../typebox.js';
import { ConfigVersion } from './common.js';

/** Present only when there is something to know: the game loads the mission, but maybe not as meant. */
const MissionWarning = Type.Optional(
  Type.String({ description: 'The game loads it, but maybe not as meant (a version number read as the terrain).' }),
);

/**
 * What else a game's mission file names carry beside the name (`GET /games/{game}` says which game has
 * which): the first game's `terrain`, the last part of its names; none for a game whose missions are maps.
 */
const Terrain = Type.Optional(
  Type.String({ description: 'The terrain part of the name (`Altis`), for a game whose mission names carry one.' }),
);

export const MissionFile = Type.Object(
  { name: Type.String(), filename: Type.String(), size_bytes: Type.Integer(), terrain: Terrain, warning: MissionWarning },
  { $id: 'MissionFile' },
);

export const MissionList = Type.Object(
  { server_id: Type.Integer(), total: Type.Integer(), missions: Type.Array(MissionFile) },
  { $id: 'MissionList' },
);

export const UploadedMission = Type.Object(
  { filename: Type.String(), mission_name: Type.String(), terrain: Terrain, file_size: Type.Integer(), warning: MissionWarning },
  { $id: 'UploadedMission' },
);

export const MissionUpload = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: 'The mission file, named as the game names its missions (`GET /games/{game}`); its name is reduced to its base name.',
    }),
  },
  { $id: 'MissionUpload' },
);

/**
 * A rotation entry's options besides its name, each a string: the game's rotation options
 * (`GET /games/{game}`, `missions.rotation_options`), checked and put in their stored form by the game.
 */
const RotationOptionValue = Type.String({ maxLength: 64 });
const DIFFICULTY_AS_SENT =
  'The difficulty, for a game whose rotation options have one (`GET /games/{game}` lists its values), in any case; ' +
  "absent: the game's default.";

export const RotationEntry = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    difficulty: Type.Optional(
      Type.String({ description: 'The difficulty, for a game whose rotation options have one: `""` is the server\'s own.' }),
    ),
  },
  { additionalProperties: RotationOptionValue, $id: 'RotationEntry', description: "A mission and the game's rotation options for it." },
);

/** A rotation entry as sent: the options in any form the game reads, or left out for their defaults. */
export const RotationEntryInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    difficulty: Type.Optional(Type.String({ maxLength: 16, description: DIFFICULTY_AS_SENT })),
  },
  { additionalProperties: RotationOptionValue },
);

export const Rotation = Type.Object(
  {
    missions: Type.Array(RotationEntry),
    config_version: Type.Integer({ description: "The server section's version, to send back with a change." }),
  },
  { $id: 'Rotation' },
);

export const RotationSaved = Type.Object(
  {
    missions: Type.Array(RotationEntry),
    config_version: Type.Integer({ description: "The server section's version, to send back with a change." }),
    warnings: Type.Array(Type.String(), {
      description: 'Entries saved that name no installed mission file: the game cannot load them until one is uploaded.',
    }),
  },
  { $id: 'RotationSaved' },
);

export const RotationUpdate = Type.Object(
  { missions: Type.Array(RotationEntryInput, { maxItems: 500 }), config_version: ConfigVersion },
  { additionalProperties: false },
);

export const PlayMissionRequest = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'An installed mission, as `GET /missions` names it (`co10_Escape.Altis`).',
    }),
    difficulty: Type.Optional(Type.String({ maxLength: 16, description: DIFFICULTY_AS_SENT })),
  },
  { additionalProperties: RotationOptionValue, description: "The mission and the game's rotation options to play it with." },
);
export const MissionPlaying = Type.Object(
  {
    message: Type.String(),
    name: Type.String(),
    difficulty: Type.Optional(
      Type.String({ description: 'As sent to the game, capitalised; `""` when none was given (a game with a difficulty).' }),
    ),
  },
  { additionalProperties: RotationOptionValue, $id: 'MissionPlaying', description: 'The mission and its options as sent to the game.' },
);

export const Mod = Type.Object(
  {
    name: Type.String(),
    folder_path: Type.String(),
    enabled: Type.Boolean(),
    is_server_mod: Type.Boolean(),
    workshop_id: Type.Optional(Type.String({ description: "The mod's Workshop id, when its folder says (meta.cpp's publishedid)." })),
    display_name: Type.Optional(Type.String({ description: "The mod's own name, when its folder says (mod.cpp's or meta.cpp's name)." })),
    // `workshop`: linked by Garrison from the Workshop (docs/workshop.md); `local`: put there otherwise.
    source: Type.Union([Type.Literal('workshop'), Type.Literal('local')]),
  },
  { $id: 'Mod', description: '`is_server_mod` is false for a mod that is not enabled.' },
);

export const ModList = Type.Object({ server_id: Type.Integer(), enabled_count: Type.Integer(), mods: Type.Array(Mod) }, { $id: 'ModList' });

export const EnabledModSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), is_server_mod: Type.Boolean() },
  { additionalProperties: false },
);

export const EnabledModsUpdate = Type.Object({ mods: Type.Array(EnabledModSchema, { maxItems: 200 }) }, { additionalProperties: false });

export const EnabledModsResult = Type.Object(
  { message: Type.String(), enabled_mods: Type.Array(EnabledModSchema) },
  { $id: 'EnabledModsResult', description: 'Takes effect at the next start.' },
);

export const PresetQuery = Type.Object(
  {
    apply: Type.Optional(
      Type.Boolean({ default: false, description: "Also make the preset's installed mods the enabled client mods (server mods stay)." }),
    ),
  },
  { additionalProperties: false },
);

export const PresetUpload = Type.Object(
  {
    file: Type.String({
      format: 'binary',
      description: 'The preset HTML the launcher exported; or send it as the body itself (text/html).',
    }),
  },
  { $id: 'PresetUpload' },
);

export const PresetDiff = Type.Object(
  {
    preset: Type.Object({ kind: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
    matched: Type.Array(Type.Object({ id: Type.Optional(Type.String()), name: Type.String(), folder: Type.String() }), {
      description: 'In the preset and installed.',
    }),
    missing: Type.Array(Type.Object({ id: Type.Optional(Type.String()), name: Type.String() }), {
      description: 'In the preset, not installed.',
    }),
    extra: Type.Array(Type.Object({ folder: Type.String() }), {
      description: 'Enabled client mods not in the preset: after an apply, as the server is then (none).',
    }),
    dlc: Type.Array(Type.Object({ app_id: Type.String(), name: Type.String() })),
    applied: Type.Boolean(),
  },
  { $id: 'PresetDiff', description: 'A launcher preset against the installed and enabled mods.' },
);
