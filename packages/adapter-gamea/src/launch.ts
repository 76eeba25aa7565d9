import { ApiError, type ConfigValues, type HeadlessOptions, type LaunchOptions, type ServerContext } from '@garrison/core';
import { layout } from './layout.js';
import { modNameProblem } from './mods.js';

/**
 * The `-mod=` list: names joined by `;` into one argument. The arguments go to the process as an array,
 * never through a shell, so a name with spaces or brackets arrives as it is; a `;` in a name would
 * smuggle in another mod, which is why the name rule refuses it.
 */
function modList(names: string[]): string {
  for (const name of names) {
    const problem = modNameProblem(name);
    if (problem) throw new ApiError('INVALID_CONFIG', `mod folder ${JSON.stringify(name)} ${problem}`);
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
    `-name=${paths.name}`,
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

/**
 * A headless client: the same executable as a client that joins the server on this host and runs AI.
 * Client mods only (a server mod is the server's alone), its own profile folder and name.
 */
export function headlessArguments(config: ConfigValues, ctx: ServerContext, options: HeadlessOptions): string[] {
  const password = String(config.server?.password ?? '');
  const clientMods = options.mods.filter((m) => !m.is_server_mod).map((m) => m.name);
  return [
    '-client',
    '-connect=127.0.0.1',
    `-port=${ctx.server.game_port}`,
    ...(password ? [`-password=${password}`] : []),
    ...(clientMods.length ? [`-mod=${modList(clientMods)}`] : []),
    `-profiles=${options.profileDir}`,
    `-name=HC${options.index}`,
  ];
}
