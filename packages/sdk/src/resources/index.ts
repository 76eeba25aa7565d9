import type { Caller } from './calls.js';
import { auth } from './auth.js';
import { keys } from './keys.js';
import { users } from './users.js';
import { games } from './games.js';
import { system } from './system.js';
import { webhooks } from './webhooks.js';
import { nodes } from './nodes.js';
import { servers } from './servers.js';
import { logs } from './logs.js';
import { metrics } from './metrics.js';
import { missions } from './missions.js';
import { mods } from './mods.js';
import { schedules } from './schedules.js';
import { backups } from './backups.js';
import { jobs } from './jobs.js';
import { steam } from './steam.js';
import { workshop } from './workshop.js';
import { players } from './players.js';
import { bans } from './bans.js';
import { rcon } from './rcon.js';
import { config } from './config.js';
import { audit } from './audit.js';

export type { SectionPatch } from './config.js';

/** The calls grouped by resource, with positional ids: `client.servers.start(id)`; one file per resource. */
export function resources(c: Caller) {
  return {
    auth: auth(c),
    keys: keys(c),
    users: users(c),
    games: games(c),
    system: system(c),
    webhooks: webhooks(c),
    nodes: nodes(c),
    servers: servers(c),
    logs: logs(c),
    metrics: metrics(c),
    missions: missions(c),
    mods: mods(c),
    schedules: schedules(c),
    backups: backups(c),
    jobs: jobs(c),
    steam: steam(c),
    workshop: workshop(c),
    players: players(c),
    bans: bans(c),
    rcon: rcon(c),
    config: config(c),
    audit: audit(c),
  };
}
