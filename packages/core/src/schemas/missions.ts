import { Type } from '../typebox.js';
import { ConfigVersion } from './common.js';

export const MissionFile = Type.Object(
  { name: Type.String(), filename: Type.String(), size_bytes: Type.Integer(), terrain: Type.String() },
  { $id: 'MissionFile' },
);

export const MissionList = Type.Object(
  { server_id: Type.Integer(), total: Type.Integer(), missions: Type.Array(MissionFile) },
  { $id: 'MissionList' },
);

export const UploadedMission = Type.Object(
  { filename: Type.String(), mission_name: Type.String(), terrain: Type.String(), file_size: Type.Integer() },
  { $id: 'UploadedMission' },
);

export const MissionUpload = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The mission file (name.Terrain.pbo); its name is reduced to its base name.' }) },
  { $id: 'MissionUpload' },
);

export const RotationDifficulty = Type.Union((['', 'Recruit', 'Regular', 'Veteran', 'Custom'] as const).map((d) => Type.Literal(d)));

export const RotationEntry = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), difficulty: RotationDifficulty },
  { additionalProperties: false, $id: 'RotationEntry' },
);

export const Rotation = Type.Object(
  {
    missions: Type.Array(RotationEntry),
    config_version: Type.Integer({ description: "The server section's version, to send back with a change." }),
  },
  { $id: 'Rotation' },
);

export const RotationUpdate = Type.Object(
  { missions: Type.Array(RotationEntry, { maxItems: 500 }), config_version: ConfigVersion },
  { additionalProperties: false },
);

export const Mod = Type.Object(
  { name: Type.String(), folder_path: Type.String(), enabled: Type.Boolean(), is_server_mod: Type.Boolean() },
  { $id: 'Mod', description: '`is_server_mod` is false for a mod that is not enabled.' },
);

export const ModList = Type.Object({ server_id: Type.Integer(), enabled_count: Type.Integer(), mods: Type.Array(Mod) }, { $id: 'ModList' });

export const EnabledModSchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), is_server_mod: Type.Boolean() }, { additionalProperties: false });

export const EnabledModsUpdate = Type.Object({ mods: Type.Array(EnabledModSchema, { maxItems: 200 }) }, { additionalProperties: false });

export const EnabledModsResult = Type.Object(
  { message: Type.String(), enabled_mods: Type.Array(EnabledModSchema) },
  { $id: 'EnabledModsResult', description: 'Takes effect at the next start.' },
);
