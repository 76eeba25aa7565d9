import { join } from 'node:path';
import type { ServerContext } from '@garrison/core';

/** Profile name passed as `-name=`; the game reads `<profiles>/Users/<name>/<name>.GameaProfile`. */
export const PROFILE_NAME = 'server';

/**
 * Where a server's files live. Generated configs stay in the server's own folder under the data dir;
 * the profiles folder is `<exe dir>/server`, where the game also writes its `.rpt` logs.
 */
export function layout(ctx: ServerContext) {
  const profiles = join(ctx.exeDir, 'server');
  const battlEye = join(ctx.serverDir, 'battleye');
  return {
    serverCfg: join(ctx.serverDir, 'server.cfg'),
    basicCfg: join(ctx.serverDir, 'basic.cfg'),
    profiles,
    profile: join(profiles, 'Users', PROFILE_NAME, `${PROFILE_NAME}.GameaProfile`),
    battlEye,
    battlEyeCfg: join(battlEye, 'BEServer_x64.cfg'),
    banFile: join(battlEye, 'bans.txt'),
    missions: join(ctx.exeDir, 'mpmissions'),
  };
}
