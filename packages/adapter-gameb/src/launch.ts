import { ApiError, type ConfigValues, type ServerContext } from '@garrison/core';
import { layout } from './layout.js';
import { mapNameProblem } from './maps.js';
import { startMap } from './config/render.js';

/**
 * `-console -port <game port> +ip 0.0.0.0 +maxplayers <n> +map <map> +exec server.cfg`, one array
 * element each (they go to spawn() as they are, never through a shell). The RCON password is in
 * server.cfg, not here, so that it never shows in a process list. A further server on the installation
 * execs its own cfg (`server_<key>.cfg`).
 */
export function launchArguments(config: ConfigValues, ctx: ServerContext): string[] {
  const maxPlayers = Math.trunc(Number(config.server?.max_players ?? 24));
  const map = startMap(config);
  const problem = mapNameProblem(map);
  if (problem) throw new ApiError('INVALID_CONFIG', `the start map: ${problem}`);
  return [
    '-console',
    '-port',
    String(ctx.server.game_port),
    '+ip',
    '0.0.0.0',
    '+maxplayers',
    String(maxPlayers > 0 ? maxPlayers : 24),
    '+map',
    map,
    '+exec',
    layout(ctx).names.serverCfg,
  ];
}
