import { join } from 'node:path';
import type { ServerContext } from '@garrison/core';

/** The profile name of a server alone on its installation: the game's usual `-name=server`. */
export const PROFILE_NAME = 'server';

/**
 * The name passed as `-name=`, which is also the profiles folder's name in the installation: `server` for a
 * server alone there, `server_<key>` for each further one, so that two servers never write one profile.
 */
function profileName(ctx: ServerContext): string {
  return ctx.installationKey ? `${PROFILE_NAME}_${ctx.installationKey}` : PROFILE_NAME;
}

/**
 * Where a server's files live. Generated configs and the BattlEye folder stay in the server's own folder
 * under the data dir; the profiles folder is `<exe dir>/<profile name>`, where the game reads
 * `Users/<name>/<name>.GameaProfile` and writes its `.rpt` logs. Missions and mods are the installation's.
 */
export function layout(ctx: ServerContext) {
  const name = profileName(ctx);
  const profiles = join(ctx.exeDir, name);
  const battlEye = join(ctx.serverDir, 'battleye');
  return {
    serverCfg: join(ctx.serverDir, 'server.cfg'),
    basicCfg: join(ctx.serverDir, 'basic.cfg'),
    name,
    profiles,
    profileUser: join(profiles, 'Users', name),
    profile: join(profiles, 'Users', name, `${name}.GameaProfile`),
    battlEye,
    battlEyeCfg: join(battlEye, 'BEServer_x64.cfg'),
    banFile: join(battlEye, 'bans.txt'),
    missions: join(ctx.exeDir, 'mpmissions'),
  };
}
