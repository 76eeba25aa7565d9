import { readFileSync } from 'node:fs';
import {
  ADAPTER_API_VERSION,
  defineAdapter,
  type ConfigValues,
  type RemoteAdminTarget,
  type ServerContext,
  ApiError,
} from '@garrison/core';
import { BattlEyeClient } from '@garrison/battleye';
import { sections } from './config/sections.js';
import { renderConfigFiles } from './config/render.js';
import { checkSection } from './config/extra-lines.js';
import { generateCredentials } from './credentials.js';
import { headlessArguments, launchArguments } from './launch.js';
import { layout } from './layout.js';
import { GAME_LOG_FILES, separateFolders, sharedProfileRenamed } from './own-folders.js';
import { isLogFile, logReader, missionOf, parseLogLine } from './logs.js';
import { MISSION_EXTENSION, parseMissionFilename, rotationOptions } from './missions.js';
import { modNameProblem } from './mods.js';
import { describeMod } from './mod-info.js';
import { launcherPreset } from './presets.js';
import { importer } from './import/installation.js';
import { formatBanLine, parseBanLine } from './bans.js';
import { remoteAdmin } from './remote-admin.js';
import { IDENTITIES } from './identities.js';
import { steam } from './steam.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function remoteAdminTarget(config: ConfigValues, ctx: ServerContext): RemoteAdminTarget | null {
  const rcon = config.rcon ?? {};
  if (rcon.enabled !== 1 || !rcon.rcon_password) return null;
  return { host: '127.0.0.1', port: ctx.server.rcon_port, password: String(rcon.rcon_password) };
}

export const gamea = defineAdapter({
  apiVersion: ADAPTER_API_VERSION,
  identity: { game_type: 'gamea', display_name: 'Gamea', version, schema_version: '1.0' },
  identities: IDENTITIES,
  // The console's words for this game: what no schema says.
  presentation: {
    exampleExePath: '/srv/gamea/gameaserver_x64.exe',
    backupContents: 'profile (player persistence), its generated config files, its BattlEye folder with the bans',
    importFiles: "server.cfg, basic.cfg, the profile, BattlEye's config and bans.txt",
    exampleCommandLine: 'gameaserver_x64.exe -port=2302 -config=server.cfg -mod=@CBA_A3;@ace',
  },
  steam,
  capabilities: {
    config_generator: {
      sections,
      generateCredentials,
      render: renderConfigFiles,
      checkSection,
      glance: (config) => ({ hostname: String(config.server?.hostname ?? ''), max_players: Number(config.server?.max_players) }),
      // The BattlEye config stays on the server: it is the RCon password and port, nothing to edit by hand.
      downloadable: ['server.cfg', 'basic.cfg', 'server.GameaProfile'],
      importer,
    },
    process_config: {
      allowedExecutables: ['gameaserver_x64.exe', 'gameaserver.exe'],
      launchArguments,
      headlessArguments,
      // The server's state: its profile (player persistence, .vars), the files Garrison generated and
      // BattlEye's folder with the bans; not the logs, which the game writes again, nor the mods.
      backupParts: (ctx: ServerContext) => {
        const paths = layout(ctx);
        return [
          { name: 'profile', root: paths.profiles, exclude: GAME_LOG_FILES, rename: sharedProfileRenamed(paths.name) },
          { name: 'config', root: ctx.serverDir, entries: ['server.cfg', 'basic.cfg', 'battleye'] },
          { name: 'missions', root: paths.missions, missions: true },
        ];
      },
      separateFolders,
      // Ready once BattlEye RCon takes a login; a server with RCon off is ready when it runs.
      async isReady(config: ConfigValues, ctx: ServerContext) {
        const target = remoteAdminTarget(config, ctx);
        if (!target) return true;
        try {
          const client = await BattlEyeClient.connect({ ...target, loginTimeoutMs: 1000, resendMs: 250 });
          await client.close();
          return true;
        } catch (err) {
          if (err instanceof ApiError && err.code === 'RCON_ERROR') return false; // no answer yet, or no login
          throw err;
        }
      },
    },
    log_parser: {
      logDirectory: (ctx: ServerContext) => layout(ctx).profiles,
      isLogFile,
      parseLine: parseLogLine,
      missionOf,
      reader: logReader,
    },
    remote_admin: { ...remoteAdmin, target: remoteAdminTarget },
    mission_manager: {
      missionExtension: MISSION_EXTENSION,
      missionDirectory: (ctx: ServerContext) => layout(ctx).missions,
      missionLabel: 'Mission',
      parseMissionFilename,
      rotation: { section: 'server', field: 'missions' },
      rotationOptions,
    },
    mod_manager: {
      modDirectory: (ctx: ServerContext) => ctx.exeDir,
      isModFolder: (name: string) => name.startsWith('@'),
      modNameProblem,
      enabled: { section: 'launch', field: 'mods' },
      modArguments: ['-mod', '-serverMod'],
      describeMod,
      launcherPreset,
    },
    // GUID and IP bans share BattlEye's one bans.txt: the kind does not choose the file.
    ban_manager: { banFilePath: (ctx: ServerContext, _kind: string) => layout(ctx).banFile, parseBanLine, formatBanLine },
  },
});

export default gamea;
export { sections } from './config/sections.js';
export { quote } from './config/syntax.js';
export { renderServerCfg, renderBasicCfg, renderProfile, renderBattlEyeCfg } from './config/render.js';
export { launchArguments, headlessArguments } from './launch.js';
export { parseLogLine, logReader } from './logs.js';
export { parseBanLine, formatBanLine } from './bans.js';
export { parsePlayers, parsePlayerEvent, kickCommand, listPlayers } from './players.js';
export { IDENTITIES } from './identities.js';
export { readCfg, type CfgDocument } from './import/cfg-reader.js';
export { importFile } from './import/map-file.js';
export { describeMod } from './mod-info.js';
export { readStartCommand } from './import/command-line.js';
export { readBattlEyeCfg } from './import/battleye-cfg.js';
