import { mkdir } from 'node:fs/promises';
import { inject, injectable } from 'tsyringe';
import { IDLE_STATUSES } from '@garrison/core';
import { JobFailure, type JobContext, type JobExecutor } from '../../background-jobs/executors.js';
import { readAppManifest } from '../app-manifest.js';
import { SteamCmdService } from '../steamcmd-service.js';
import { steamFolderProblem } from '../steamcmd-folder.js';
import { BranchPasswords } from './branch-passwords.js';
import { InstallService } from './service.js';

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
    const { row, steam, appId, installDir } = await this.installs.target(ctx.serverId);
    // Queued while stopped; started since (the start refuses while an install is queued, but an adopted process may not ask).
    if (!IDLE_STATUSES.includes(row.status))
      throw new JobFailure('SERVER_NOT_STOPPED', `server ${row.id} is ${row.status}; stop it and send the install again`);
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
    const problem = steamFolderProblem(installDir);
    if (problem !== null) throw new JobFailure('VALIDATION_ERROR', `the installation folder ${JSON.stringify(installDir)} ${problem}`);
    await mkdir(installDir, { recursive: true });
    ctx.log(`Garrison: installing app ${appId}, branch ${branch}, into ${installDir}`);
    const work = { kind: 'app_update', appId, branch, branchPassword } as const;
    await this.steamcmd.run({ installDir, work }, ctx, { anonymousAllowed: steam.anonymous_server });
    const manifest = await readAppManifest(installDir, appId);
    ctx.log(
      manifest
        ? `Garrison: build ${manifest.buildId} of branch ${manifest.branch} is installed`
        : `Garrison: SteamCMD said the app is installed, but its manifest (steamapps/appmanifest_${appId}.acf) cannot be read`,
    );
  }
}
