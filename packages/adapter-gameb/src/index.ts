import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import {
  ADAPTER_API_VERSION,
  ApiError,
  defineAdapter,
  defineConfigGenerator,
  type ConfigValues,
  type RemoteAdminTarget,
  type ServerContext,
} from '@garrison/core';
import { sections } from './config/sections.js';
import { checkSection, renderConfigFiles } from './config/render.js';
import { importer } from './import.js';
import { launchArguments } from './launch.js';
import { layout } from './layout.js';
import { IDENTITIES } from './identity.js';
import { SourceRconClient } from './rcon/client.js';
import { commandProblem, KNOWN_COMMANDS, operations, redactCommand } from './commands.js';
import { banFilePath, formatBanLine, parseBanLine } from './bans.js';
import { isLogFile, logDirectory, missionOf, parseLogLine } from './logs.js';
import { MAP_EXTENSION, parseMapFilename, rotationOptions } from './maps.js';
import { steam } from './steam.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Letters and digits only: nothing the cfg's quotes or the console's `;` could mistake. */
function randomPassword(length = 24): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Source RCON listens over TCP on the game port itself; it is off while rcon_password is empty. */
function remoteAdminTarget(config: ConfigValues, ctx: ServerContext): RemoteAdminTarget | null {
  const password = String(config.rcon?.rcon_password ?? '');
  if (!password) return null;
  return { host: '127.0.0.1', port: ctx.server.game_port, password };
}

export const gameb = defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'gameb', display_name: 'Game B', version, schema_version: '1.0' },
  identities: IDENTITIES,
  presentation: {
    exampleExePath: '/srv/gameb/gamebserver',
    backupContents: 'config files, ban lists and map cycle',
    importFiles: 'cfg/server.cfg, the ban lists and mapcycle.txt',
    exampleCommandLine: 'gamebserver -console -port 27015 +maxplayers 24 +map de_dust2 +exec server.cfg',
  },
  steam,
  capabilities: {
    config_generator: defineConfigGenerator({
      sections,
      generateCredentials: () => ({ rcon: { rcon_password: randomPassword() } }),
      render: renderConfigFiles,
      checkSection,
      glance: (config) => ({ hostname: String(config.server?.hostname ?? ''), max_players: Number(config.server?.max_players) }),
      downloadable: ['server.cfg', 'mapcycle.txt'],
      importer,
    }),
    process_config: {
      allowedExecutables: ['gamebserver', 'gamebserver.exe'],
      launchArguments,
      // The server's state: its cfg and ban lists, its map cycle; not the logs, which the game writes again.
      backupParts: (ctx: ServerContext) => {
        const paths = layout(ctx);
        return [
          { name: 'config', root: paths.cfgDir, entries: [paths.names.serverCfg, paths.names.bannedUser, paths.names.bannedIp] },
          { name: 'mapcycle', root: ctx.exeDir, entries: [paths.names.mapcycle] },
          { name: 'maps', root: paths.maps, missions: true },
        ];
      },
      // Ready once RCON takes the password; without one there is nothing to wait for.
      async isReady(config: ConfigValues, ctx: ServerContext) {
        const target = remoteAdminTarget(config, ctx);
        if (!target) return true;
        try {
          const client = await SourceRconClient.connect({ ...target, connectTimeoutMs: 1000 });
          await client.close();
          return true;
        } catch (err) {
          if (err instanceof ApiError && err.code === 'RCON_ERROR') return false; // not listening yet, or no login
          throw err;
        }
      },
    },
    log_parser: { logDirectory, isLogFile, parseLine: parseLogLine, missionOf },
    remote_admin: {
      // RCON over TCP on the game port: the server's rcon_port is its game port.
      port: 'game',
      connect: (target: RemoteAdminTarget) => SourceRconClient.connect(target),
      target: remoteAdminTarget,
      ...operations,
      knownCommands: KNOWN_COMMANDS,
      commandProblem,
      redactCommand,
    },
    mission_manager: {
      missionExtension: MAP_EXTENSION,
      missionLabel: 'Map',
      missionDirectory: (ctx: ServerContext) => layout(ctx).maps,
      parseMissionFilename: parseMapFilename,
      rotation: { section: 'mapcycle', field: 'maps' },
      rotationOptions,
    },
    ban_manager: { banFilePath, parseBanLine, formatBanLine },
  },
});

export default gameb;
export { sections } from './config/sections.js';
export { quote, statementsOf } from './config/cvars.js';
export { renderServerCfg, renderMapcycle, extraLinesProblem } from './config/render.js';
export { launchArguments } from './launch.js';
export { parseLogLine, missionOf } from './logs.js';
export { parseBanLine, formatBanLine, banFilePath } from './bans.js';
export { parseStatus } from './players.js';
export { normalizeSteamId, isSteamId } from './identity.js';
export { SourceRconClient, type SourceRconOptions } from './rcon/client.js';
export * as rconCodec from './rcon/codec.js';
export { readStartCommand } from './import.js';
