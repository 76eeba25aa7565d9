import { Type, type Static } from '../typebox.js';
import { Id, Nullable, ServerIdParams, Timestamp } from './common.js';

export const Backup = Type.Object(
  {
    id: Type.Integer(),
    server_id: Type.Integer(),
    kind: Type.Union([Type.Literal('manual'), Type.Literal('automatic')], {
      description: "Automatic ones (a schedule's) are pruned past the server's `backup_keep`; manual and locked ones never.",
    }),
    status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    created_at: Timestamp,
    finished_at: Nullable(Timestamp),
    size_bytes: Nullable(Type.Integer()),
    sha256: Nullable(Type.String()),
    locked: Type.Boolean(),
    note: Nullable(Type.String()),
    include_missions: Type.Boolean(),
    error: Nullable(Type.String()),
  },
  { $id: 'Backup' },
);
export type Backup = Static<typeof Backup>;

export const BackupManifest = Type.Object(
  {
    garrison_version: Type.String(),
    created_at: Timestamp,
    server_running: Type.Boolean({ description: 'The server was running while it was backed up.' }),
    server: Type.Record(Type.String(), Type.Unknown()),
    config_sections: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
    mods: Type.Array(Type.Object({ name: Type.String(), is_server_mod: Type.Boolean(), workshop_id: Nullable(Type.String()) })),
    parts: Type.Array(Type.Object({ name: Type.String(), path: Type.String(), files: Type.Integer() })),
  },
  { $id: 'BackupManifest', description: 'What the archive holds; its file `manifest.json`. Secrets in config sections are masked here.' },
);

export const BackupDetail = Type.Object({ ...Backup.properties, manifest: Nullable(BackupManifest) }, { $id: 'BackupDetail' });

export const CreateBackupRequest = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 500 })), include_missions: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
export const UpdateBackupRequest = Type.Object(
  { locked: Type.Optional(Type.Boolean()), note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))) },
  { additionalProperties: false },
);
export const BackupIdParams = Type.Object({ ...ServerIdParams.properties, backup_id: Id });

export const BackupEventData = Type.Object({
  backup_id: Type.Integer(),
  status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  bytes: Type.Integer({ description: 'Compressed bytes written so far.' }),
  error: Nullable(Type.String()),
});
