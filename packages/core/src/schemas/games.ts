import { Type } from '../typebox.js';
import { CAPABILITIES } from '../adapter/contract.js';
import { REMOTE_ADMIN_OPERATIONS } from '../adapter/remote-admin.js';

export const CapabilityName = Type.Union(CAPABILITIES.map((c) => Type.Literal(c)));

export const GameSummary = Type.Object(
  {
    game_type: Type.String(),
    display_name: Type.String(),
    version: Type.String(),
    capabilities: Type.Array(CapabilityName),
    default: Type.Boolean({ description: 'The game type of a server created without one (the setting `GARRISON_DEFAULT_GAME`).' }),
  },
  { $id: 'GameSummary' },
);

export const GameDetail = Type.Object(
  {
    ...GameSummary.properties,
    schema_version: Type.String(),
    config_sections: Type.Array(Type.String()),
    allowed_executables: Type.Array(Type.String()),
    identity_kinds: Type.Array(
      Type.Object({
        kind: Type.String({ description: 'As `ban_type` names it (`GUID`, `IP`, `STEAMID`).' }),
        label: Type.String(),
        example: Type.String(),
        address: Type.Boolean({ description: 'A value of this kind is the address a player connects from.' }),
      }),
      { description: 'How the game knows players and what a ban takes; the first is the default of a ban.' },
    ),
    remote_admin_operations: Type.Array(Type.Union(REMOTE_ADMIN_OPERATIONS.map((op) => Type.Literal(op)))),
    missions: Type.Union([
      Type.Object({
        extension: Type.String({ description: 'The file extension of a mission (`.pbo`, `.bsp`).' }),
        label: Type.String({ description: 'What a person calls one (`Mission`, `Map`).' }),
        rotation_options: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of a rotation entry besides its name.' }),
      }),
      Type.Null(),
    ]),
    presentation: Type.Object({
      example_exe_path: Type.Optional(Type.String()),
      backup_contents: Type.Optional(Type.String({ description: "What a restore overwrites of a server, after `<server>'s`." })),
      import_files: Type.Optional(Type.String({ description: 'The files an import reads from the folder of the executable.' })),
      example_command_line: Type.Optional(Type.String({ description: 'A start command an import reads ports, paths and mods from.' })),
    }),
  },
  { $id: 'GameDetail' },
);

export const GameCommands = Type.Array(Type.String(), {
  $id: 'GameCommands',
  description:
    'Templates such as `#mission <NAME.TERRAIN> [difficulty]` (`<x>` required, `[x]` optional); empty for a game without remote admin.',
});

export const GameTypeParams = Type.Object({ game_type: Type.String({ minLength: 1, maxLength: 64 }) });

export const GameConfigSchema = Type.Record(Type.String(), Type.Object({}, { additionalProperties: true }), {
  $id: 'GameConfigSchema',
  description: 'Section name → JSON Schema of that section',
});

export const GameDefaults = Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
  $id: 'GameDefaults',
  description: 'Section name → default field values',
});
