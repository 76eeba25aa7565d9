import { ApiError, type ConfigValues, type LaunchOptions, type ServerContext } from '@garrison/core';
import { layout, PROFILE_NAME } from './layout.js';

const MOD_FOLDER = /^@[A-Za-z0-9_.\- ]+$/;

function modList(names: string[]): string {
  for (const name of names) {
    // `;` separates mods on the command line, so a name holding one would smuggle in another mod.
    if (!MOD_FOLDER.test(name)) throw new ApiError('INVALID_CONFIG', `mod folder name not allowed: ${JSON.stringify(name)}`);
  }
  return names.join(';');
}

/** The executable's arguments, one array element each: they go to spawn() as they are, never through a shell. */
export function launchArguments(config: ConfigValues, ctx: ServerContext, options: LaunchOptions = {}): string[] {
  const launch = config.launch ?? {};
  const paths = layout(ctx);
  const args = [
    `-port=${ctx.server.game_port}`,
    `-config=${paths.serverCfg}`,
    `-cfg=${paths.basicCfg}`,
    `-profiles=${paths.profiles}`,
    `-name=${PROFILE_NAME}`,
    `-world=${launch.world}`,
    `-limitFPS=${launch.limit_fps}`,
  ];
  const mods = options.mods ?? [];
  const clientMods = mods.filter((m) => !m.is_server_mod).map((m) => m.name);
  const serverMods = mods.filter((m) => m.is_server_mod).map((m) => m.name);
  if (clientMods.length) args.push(`-mod=${modList(clientMods)}`);
  if (serverMods.length) args.push(`-serverMod=${modList(serverMods)}`);
  if (launch.auto_init) args.push('-autoInit');
  if (launch.load_mission_to_memory) args.push('-loadMissionToMemory');
  if (launch.enable_ht) args.push('-enableHT');
  if (launch.huge_pages) args.push('-hugePages');
  if (launch.file_patching) args.push('-filePatching');
  if (launch.netlog) args.push('-netlog');
  if (Number(launch.max_mem) > 0) args.push(`-maxMem=${launch.max_mem}`);
  if (Number(launch.cpu_count) > 0) args.push(`-cpuCount=${launch.cpu_count}`);
  if (Number(launch.ex_threads) > 0) args.push(`-exThreads=${launch.ex_threads}`);
  if (Number(launch.bandwidth_alg) > 0) args.push(`-bandwidthAlg=${launch.bandwidth_alg}`);
  args.push(`-bepath=${paths.battlEye}`);
  return args;
}
