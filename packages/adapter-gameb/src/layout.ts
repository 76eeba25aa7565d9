import { join } from 'node:path';
import type { ServerContext } from '@garrison/core';

/**
 * Where a server's files live. The game reads and writes everything inside its installation (the
 * folder of the executable): `cfg/` for its configs and ban lists, `maps/`, `logs/`, `mapcycle.txt`, so
 * Garrison writes its files there too. A further server on the same installation (`installationKey`)
 * gets its own names beside the first one's (`cfg/server_<key>.cfg`, `mapcycle_<key>.txt`,
 * `logs_<key>/`, `cfg/banned_user_<key>.cfg`), which its server.cfg points the game at, so that two
 * servers never write one file. Maps are the installation's, shared.
 */
export function layout(ctx: ServerContext) {
  const suffix = ctx.installationKey ? `_${ctx.installationKey}` : '';
  const cfgDir = join(ctx.exeDir, 'cfg');
  const names = {
    serverCfg: `server${suffix}.cfg`,
    mapcycle: `mapcycle${suffix}.txt`,
    logs: `logs${suffix}`,
    bannedUser: `banned_user${suffix}.cfg`,
    bannedIp: `banned_ip${suffix}.cfg`,
  };
  return {
    /** File and folder names as the game's own settings take them (relative to cfg/ or the game folder). */
    names,
    cfgDir,
    serverCfg: join(cfgDir, names.serverCfg),
    mapcycle: join(ctx.exeDir, names.mapcycle),
    logs: join(ctx.exeDir, names.logs),
    bannedUser: join(cfgDir, names.bannedUser),
    bannedIp: join(cfgDir, names.bannedIp),
    maps: join(ctx.exeDir, 'maps'),
  };
}
