import { Type, type Static } from '../typebox.js';
import { ExePath, Port, ServerDetail, ServerName } from './servers.js';

const FilePath = Type.String({ minLength: 1, maxLength: 4096 });

export const ImportServerRequest = Type.Object(
  {
    exe_path: Type.Intersect([ExePath], {
      description: "The existing server's executable; its folder is the game folder, and every file read must be inside it.",
    }),
    name: Type.Optional(Type.Intersect([ServerName], { description: "The new server's name; the config's hostname when left out." })),
    config_path: Type.Optional(
      Type.Intersect([FilePath], {
        description: 'server.cfg; otherwise -config= of the command line, or server.cfg beside the executable.',
      }),
    ),
    basic_path: Type.Optional(
      Type.Intersect([FilePath], { description: 'basic.cfg; otherwise -cfg= of the command line, or basic.cfg beside the executable.' }),
    ),
    profile_path: Type.Optional(
      Type.Intersect([FilePath], { description: 'The server profile; otherwise found from -profiles= and -name=.' }),
    ),
    command_line: Type.Optional(
      Type.String({
        maxLength: 65536,
        description: 'The start command as kept (a script line, a .bat file): ports, paths and mods are read from it.',
      }),
    ),
    game_port: Type.Optional(
      Type.Intersect([Port], {
        description: 'The game port, instead of -port= of the command line (say, when another program holds that one).',
      }),
    ),
    rcon_port: Type.Optional(
      Type.Intersect([Port], {
        description: "The remote admin port, instead of the one the installation's files name (or the adapter's default).",
      }),
    ),
    dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Answer the plan and write nothing.' })),
  },
  { additionalProperties: false },
);
export type ImportServerRequest = Static<typeof ImportServerRequest>;

export const ImportSettingAt = Type.Object(
  { file: Type.String(), line: Type.Integer({ minimum: 0 }), key: Type.String() },
  { description: 'A setting of a file read: the file, its line (1-based) and its key as written.' },
);
export type ImportSettingAt = Static<typeof ImportSettingAt>;

export const ImportRefusal = Type.Object({ ...ImportSettingAt.properties, reason: Type.String() });
export type ImportRefusal = Static<typeof ImportRefusal>;

/** The server a dry run proposes. */
export const ProposedServer = Type.Object(
  { name: Type.String(), game_type: Type.String(), exe_path: Type.String(), game_port: Port, rcon_port: Port },
  { additionalProperties: false },
);

/** The server an import made, with its id, and the credentials read (shown only here). */
export const ImportedServer = Type.Object(ServerDetail.properties, { additionalProperties: Type.Unknown() });

export const ImportPlan = Type.Object(
  {
    dry_run: Type.Boolean({ description: 'True when nothing was written.' }),
    server: Type.Union([ImportedServer, ProposedServer], { description: 'The server made (a real import) or proposed (a dry run).' }),
    files: Type.Array(Type.Object({ role: Type.String(), path: Type.String(), found: Type.Boolean() }), {
      description: 'Each file looked at, where, and whether it was there.',
    }),
    sections: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown()), {
      description: 'Per config section, the values read from the files (passwords masked); the rest stays at the defaults.',
    }),
    rotation: Type.Array(
      Type.Object({ name: Type.String(), difficulty: Type.Optional(Type.String()) }, { additionalProperties: Type.String() }),
      {
        description: "The rotation read, each mission with the game's rotation options (`GET /games/{game}`).",
      },
    ),
    mods: Type.Array(Type.Object({ name: Type.String(), is_server_mod: Type.Boolean(), installed: Type.Boolean() })),
    bans: Type.Object({ count: Type.Integer({ minimum: 0 }), file: Type.Union([Type.String(), Type.Null()]) }),
    missions: Type.Array(Type.String(), { description: 'Mission files found in the game folder.' }),
    unknown: Type.Array(ImportSettingAt, { description: 'Settings Garrison has no field for: kept in the section’s extra lines.' }),
    refused: Type.Array(ImportRefusal, {
      description: 'Settings not taken (out of bounds, an #include outside the game folder…), left at the default.',
    }),
    warnings: Type.Array(Type.String()),
  },
  { $id: 'ImportPlan', description: 'What an import of an existing server does (or, on a dry run, would do).' },
);
export type ImportPlan = Static<typeof ImportPlan>;
