import { mkdir } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { JobFailure, type JobContext, type JobExecutor } from '../../background-jobs/executors.js';
import { readAppManifest } from '../app-manifest.js';
import { SteamCmdService } from '../steamcmd-service.js';
import { steamFolderProblem } from '../steamcmd-folder.js';
import { BranchPasswords } from './branch-passwords.js';
import { InstallService } from './service.js';

/** Failures before SteamCMD writes into the installation (the login, the app's access): it stays as it was. */
const NOTHING_WRITTEN = new Set([
  'JOB_CANCELLED',
  'STEAMCMD_NOT_FOUND',
  'STEAM_ACCOUNT_REQUIRED',
  'STEAM_GUARD_REQUIRED',
  'STEAM_LOGIN_FAILED',
  'STEAM_RATE_LIMITED',
  'STEAM_NO_SUBSCRIPTION',
  'STEAM_BRANCH_PASSWORD',
]);

/**
 * The `steam.install` job: `+app_update <server app> [-beta <branch> [-betapassword …]] validate` into the
 * server's installation, logged in with the Steam account (or anonymously where the game allows it), then
 * the app manifest read back to say which build is installed.
 */
@injectable()
export class InstallExecutor implements JobExecutor {
  constructor(
    @inject(InstallService) private readonly installs: InstallService,
    @inject(SteamCmdService) private readonly steamcmd: SteamCmdService,
    @inject(BranchPasswords) private readonly passwords: BranchPasswords,
  ) {}

  async execute(ctx: JobContext): Promise<void> {
    if (ctx.serverId === null) throw new JobFailure('NOT_FOUND', 'an install job names its server');
    const target = await this.installs.target(ctx.serverId);
    const { row, steam, appId, installDir } = target;
    // Queued while all were stopped; one started since (a start refuses while an install is queued, but an adopted process may not ask).
    await this.installs.assertAllStopped(row, (message) => new JobFailure('SERVER_NOT_STOPPED', `${message} and send the install again`));
    const branch = typeof ctx.payload.branch === 'string' ? ctx.payload.branch : 'public';
    const ref = ctx.payload.protected_branch_ref;
    let branchPassword: string | undefined;
    if (typeof ref === 'string') {
      branchPassword = this.passwords.take(ref);
      if (branchPassword === undefined) {
        throw new JobFailure(
          'STEAM_BRANCH_PASSWORD',
          "the branch password was held in the service's memory only, and the service restarted since: send the install again",
        );
      }
    }
    // Checked when the install was asked for; the server's exe_path may have changed since.
    const problem = steamFolderProblem(installDir, process.platform, true);
    if (problem !== null) throw new JobFailure('VALIDATION_ERROR', `the installation folder ${JSON.stringify(installDir)} ${problem}`);
    await mkdir(installDir, { recursive: true });
    ctx.log(`Garrison: installing app ${appId}, branch ${branch}, into ${installDir}`);
    const work = { kind: 'app_update', appId, branch, branchPassword } as const;
    // Incomplete from here until SteamCMD says it is installed: a crash or a failure leaves a server no start may run.
    const previous = await this.installs.markIncomplete(target, ctx.jobId);
    try {
      await this.steamcmd.run({ installDir, work }, ctx, { anonymousAllowed: steam.anonymous_server });
    } catch (err) {
      if (err instanceof JobFailure && NOTHING_WRITTEN.has(err.code)) await this.installs.settle(target, previous);
      throw err;
    }
    await this.installs.settle(target);
    const manifest = await readAppManifest(installDir, appId);
    ctx.log(
      manifest
        ? `Garrison: build ${manifest.buildId} of branch ${manifest.branch} is installed`
        : `Garrison: SteamCMD said the app is installed, but its manifest (steamapps/appmanifest_${appId}.acf) cannot be read`,
    );
  }
}
