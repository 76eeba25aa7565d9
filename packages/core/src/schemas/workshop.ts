import { Type, type Static } from '../typebox.js';
import { Id, Nullable, Timestamp } from './common.js';

export const WORKSHOP_STATUSES = ['queued', 'downloading', 'installed', 'outdated', 'failed'] as const;

/** A Workshop item of a server (docs/workshop.md). */
export const WorkshopItem = Type.Object(
  {
    workshop_id: Type.String(),
    name: Type.String(),
    folder: Nullable(Type.String()),
    status: Type.Union(WORKSHOP_STATUSES.map((s) => Type.Literal(s))),
    time_updated: Nullable(Timestamp),
    installed_at: Nullable(Timestamp),
    size_bytes: Nullable(Type.Integer()),
    keys: Type.Array(Type.String()),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  },
  { $id: 'WorkshopItem' },
);
export type WorkshopItem = Static<typeof WorkshopItem>;

export const WorkshopItemParams = Type.Object({ server_id: Id, workshop_id: Type.String({ pattern: '^[0-9]{1,20}$' }) });

export const WorkshopCheck = Type.Object(
  { checked: Type.Integer(), newly_outdated: Type.Array(Type.String()), items: Type.Array(WorkshopItem) },
  { $id: 'WorkshopCheck' },
);

/**
 * Items to download and install: Workshop ids or their page URLs (`…/filedetails/?id=123`), and/or a
 * collection (its id or URL), whose items are added as if listed.
 */
export const WorkshopAddRequest = Type.Object(
  {
    items: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 })),
    collection: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { $id: 'WorkshopAddRequest', additionalProperties: false },
);
export type WorkshopAddRequest = Static<typeof WorkshopAddRequest>;
