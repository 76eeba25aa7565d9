import { Type } from '../typebox.js';
import { CAPABILITIES } from '../adapter/contract.js';
import { REMOTE_ADMIN_OPERATIONS } from '../adapter/remote-admin.js';
import { SteamDeclaration } from '../adapter/steam.js';
import { Nullable } from './common.js';

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
        kind: Type.String(),
        label: Type.String(),
        example: Type.String(),
        address: Type.Boolean(),
        pattern: Type.Optional(Type.String()),
      }),
    ),
    remote_admin_operations: Type.Array(Type.Union(REMOTE_ADMIN_OPERATIONS.map((op) => Type.Literal(op)))),
    remote_admin_port: Type.Union([Type.Literal('own'), Type.Literal('game'), Type.Null()], {
      description: "own: the server's rcon_port; game: on the game port (rcon_port is game_port); null: no remote admin",
    }),
    missions: Type.Union([
      Type.Object({
        extension: Type.String(),
        label: Type.String(),
        rotation_options: Type.Object({}, { additionalProperties: true }),
      }),
      Type.Null(),
    ]),
    presentation: Type.Object({
      example_exe_path: Type.Optional(Type.String()),
      backup_contents: Type.Optional(Type.String()),
      import_files: Type.Optional(Type.String()),
      example_command_line: Type.Optional(Type.String()),
    }),
    steam: Nullable(SteamDeclaration),
  },
  {
    $id: 'GameDetail',
    description:
      "`identity_kinds`: what a ban takes, the first by default; `missions.rotation_options`: JSON Schema of an entry's options.",
  },
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
