import { Type, type Static } from '../typebox.js';
import { Nullable, Timestamp } from './common.js';
import { ServerStatus } from './servers.js';

/** The game server itself, or one of its headless clients (extra game processes that run a mission's AI). */
export const ProcessRole = Type.Union([Type.Literal('server'), Type.Literal('headless')]);
export type ProcessRole = Static<typeof ProcessRole>;

/** One process of a server, as `GET /servers/{id}/processes` lists it. */
export const ProcessInfo = Type.Object(
  {
    role: ProcessRole,
    /** 0 for the server; 1… for its headless clients. */
    index: Type.Integer(),
    pid: Nullable(Type.Integer()),
    status: ServerStatus,
    started_at: Nullable(Timestamp),
    restart_count: Type.Integer(),
    cpu_percent: Nullable(Type.Number()),
    ram_mb: Nullable(Type.Number()),
  },
  { $id: 'ProcessInfo' },
);
export type ProcessInfo = Static<typeof ProcessInfo>;

/** `data` of a `process_status` event: a headless client changed state (the server's own state is `server_status`). */
export const ProcessStatusEventData = Type.Object({
  role: ProcessRole,
  index: Type.Integer(),
  status: ServerStatus,
  pid: Nullable(Type.Integer()),
  started_at: Nullable(Timestamp),
  restart_count: Type.Integer(),
  /** Why, when it is not what was asked: `crashed`, `gave_up` (its restarts are used up). */
  reason: Nullable(Type.String()),
});
export type ProcessStatusEventData = Static<typeof ProcessStatusEventData>;
