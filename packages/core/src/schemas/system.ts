import { Type } from '../typebox.js';

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
