import { Type, type Static } from '../typebox.js';
import { Nullable, Timestamp } from './common.js';

export const NodeId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._-]+$',
  description: 'A Garrison instance (node) of the cluster.',
});

export const NodeIdParams = Type.Object({ node_id: NodeId });

export const ClusterNode = Type.Object(
  {
    id: NodeId,
    url: Type.String({ description: 'Where the other instances reach its API.' }),
    version: Type.String(),
    game_types: Type.Array(Type.String(), { description: 'The game types it can run (its adapters).' }),
    online: Type.Boolean({ description: "Its heartbeat is recent, by the database's clock." }),
    last_seen: Nullable(Timestamp),
    draining: Type.Boolean({ description: 'No new servers are placed on it.' }),
    server_count: Type.Integer(),
    events_connected: Nullable(
      Type.Boolean({ description: "Whether it is connected to the cluster's event bus (NATS); null for a single instance." }),
    ),
  },
  { $id: 'ClusterNode' },
);
export type ClusterNode = Static<typeof ClusterNode>;

export const UpdateNodeRequest = Type.Object({ draining: Type.Boolean() }, { additionalProperties: false });
export type UpdateNodeRequest = Static<typeof UpdateNodeRequest>;
