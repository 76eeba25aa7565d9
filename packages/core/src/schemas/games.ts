import { Type } from '../typebox.js';
import { CAPABILITIES } from '../adapter/contract.js';

export const CapabilityName = Type.Union(CAPABILITIES.map((c) => Type.Literal(c)));

export const GameSummary = Type.Object(
  { game_type: Type.String(), display_name: Type.String(), version: Type.String(), capabilities: Type.Array(CapabilityName) },
  { $id: 'GameSummary' },
);

export const GameDetail = Type.Object(
  {
    ...GameSummary.properties,
    schema_version: Type.String(),
    config_sections: Type.Array(Type.String()),
    allowed_executables: Type.Array(Type.String()),
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
