import { Type } from '../typebox.js';
import { Nullable } from './common.js';

export const Health = Type.Object({ status: Type.Literal('ok') }, { $id: 'Health' });

export const SystemStatus = Type.Object(
  {
    version: Type.String(),
    running_servers: Type.Integer(),
    total_servers: Type.Integer(),
    supported_games: Type.Array(Type.String()),
  },
  { $id: 'SystemStatus' },
);

export const Integrations = Type.Object(
  {
    metrics: Type.Object({
      enabled: Type.Boolean({ description: 'Whether `GET /metrics` answers (GARRISON_METRICS_TOKEN is set).' }),
      path: Type.Literal('/metrics'),
      address: Nullable(
        Type.String({ description: "The `host:port` of its own it is served on (GARRISON_METRICS_ADDRESS), or null: on the API's port." }),
      ),
    }),
  },
  { $id: 'Integrations', description: 'How machines can follow this instance (the token itself is never shown).' },
);
