import type { ActorKind } from '@garrison/core';
import { Model } from 'objection';

export class ServerEventModel extends Model {
  static override tableName = 'server_events';
  id!: number;
  server_id!: number;
  event_type!: string;
  actor!: string | null;
  actor_kind!: ActorKind;
  actor_id!: string | null;
  /** JSON text. */
  detail!: string;
  timestamp!: string;
}
