import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EXIT, type Outcome, type SteamConsole } from './context.js';
import { entitled } from './login.js';
import { readAppManifest, writeAppManifest } from './manifests.js';
import { byteSize, updateState, type SteamApp, type SteamWorldState } from './state.js';

interface UpdateOptions {
  id: string;
  branch: string;
  betaPassword?: string;
  validate: boolean;
}

function parseOptions(args: string[]): UpdateOptions | string {
  const [id, ...rest] = args;
  if (!id || !/^\d+$/.test(id)) return 'Usage: app_update <appid> [-beta <betaname>] [-betapassword <password>] [validate]';
  const options: UpdateOptions = { id, branch: 'public', validate: false };
  for (let i = 0; i < rest.length; i += 1) {
    const word = rest[i].toLowerCase();
    if (word === 'validate') options.validate = true;
    else if ((word === '-beta' || word === '-betapassword') && rest[i + 1] !== undefined) {
      if (word === '-beta') options.branch = rest[i + 1];
      else options.betaPassword = rest[i + 1];
      i += 1;
    } else return `app_update: unknown option "${rest[i]}"`;
  }
  return options;
}

const progressLine = (code: string, what: string, done: number, total: number) =>
  ` Update state (${code}) ${what}, progress: ${total ? ((100 * done) / total).toFixed(2) : '0.00'} (${done} / ${total})`;

/** The bytes an update reports: the app's `size` when set (a realistic total), else its files'. */
const downloadSize = (app: SteamApp) => app.size ?? byteSize(app.files);

/** `+app_update <id> [-beta <branch>] [-betapassword <pw>] [validate]`: writes the app's files and its manifest. */
export async function appUpdate(steam: SteamConsole, args: string[]): Promise<Outcome> {
  const options = parseOptions(args);
  if (typeof options === 'string') {
    steam.out(options);
    return EXIT.error;
  }
  const { id, branch } = options;
  const failed = (reason: string): Outcome => {
    steam.out(`ERROR! Failed to install app '${id}' (${reason})`);
    return EXIT.app;
  };
  if (!steam.login) {
    steam.out('ERROR! Not logged on.');
    return EXIT.app;
  }
  const world = steam.world();
  const app = Object.hasOwn(world.apps, id) ? world.apps[id] : undefined;
  // Steam answers an app the login has no licence for, and one it does not know, alike.
  if (!app || !entitled(steam, id, app.anonymous)) return failed('No subscription');
  const target = Object.hasOwn(app.branches, branch) ? app.branches[branch] : undefined;
  if (!target) return failed('Invalid beta branch');
  if (target.password !== undefined && options.betaPassword !== target.password) return failed('Invalid Password');

  const folder = steam.installDir ?? join(steam.exeDir, 'steamapps', 'common', app.installdir);
  const manifestPath = join(steam.installDir ?? steam.exeDir, 'steamapps', `appmanifest_${id}.acf`);
  const installed = readAppManifest(manifestPath);
  if (!options.validate && installed?.buildid === target.buildid && installed.branch === branch) {
    steam.out(`Success! App '${id}' already up to date.`);
    return EXIT.ok;
  }
  const total = downloadSize(app);
  const show = async (line: string) => {
    steam.out(line);
    await steam.pause(world);
  };
  await show(progressLine('0x3', 'reconfiguring', 0, 0));
  if (options.validate) await show(progressLine('0x5', 'verifying install', 0, total));
  const fault = world.faults.apps?.[id];
  const steps = fault ? [0, 0.4512] : [0, 0.25, 0.4512, 0.75];
  for (const part of steps) await show(progressLine('0x61', 'downloading', Math.round(part * total), total));
  if (fault) return failedState(steam, world, id, fault.state);

  for (const [path, content] of Object.entries(app.files)) {
    const file = join(folder, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  await show(progressLine('0x81', 'verifying update', total, total));
  await show(progressLine('0x101', 'committing', total, total));
  writeAppManifest(manifestPath, {
    appid: id,
    name: app.name,
    installdir: app.installdir,
    buildid: target.buildid,
    branch,
    sizeOnDisk: byteSize(app.files),
  });
  steam.out(`Success! App '${id}' fully installed.`);
  return EXIT.ok;
}

/** An update that ends in a failed state (disk full, network), counting the fault's `times` down. */
function failedState(steam: SteamConsole, world: SteamWorldState, id: string, state: number): Outcome {
  if (world.faults.apps?.[id]?.times !== undefined) {
    updateState(steam.statePath, (s) => {
      const fault = s.faults.apps?.[id];
      if (fault?.times === undefined) return;
      fault.times -= 1;
      if (fault.times <= 0) delete s.faults.apps![id];
    });
  }
  steam.out(`Error! App '${id}' state is 0x${state.toString(16).toUpperCase()} after update job.`);
  return EXIT.app;
}
