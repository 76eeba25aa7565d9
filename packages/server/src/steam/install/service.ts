import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { ApiError, IDLE_STATUSES, type Actor, type InstallRequest, type InstallState, type SteamDeclaration } from '@garrison/core';
import { TOKENS } from '../../tokens.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ServerRow } from '../../db/repositories/servers.js';
import type { IncompleteInstallRow } from '../../db/repositories/steam-installations.js';
import type { AdapterRegistry } from '../../plugins/registry.js';
import { isoNow, type Clock } from '../../jobs/clock.js';
import { ServerLocks } from '../../servers/locks.js';
import { installationOf, sharingWith } from '../../servers/installation.js';
import { BackgroundJobService } from '../../background-jobs/service.js';
import { JobFailure } from '../../background-jobs/executors.js';
import { steamArguments } from '../arguments.js';
import { parseAppInfo, readAppManifest } from '../app-manifest.js';
import { assertSteamFolder, steamFolderProblem } from '../steamcmd-folder.js';
import { SteamCmdService, accountRequired } from '../steamcmd-service.js';
import { BranchPasswords } from './branch-passwords.js';
import type { SteamSettings } from '../settings.js';

export const INSTALL_JOB = 'steam.install';
/** Steam is asked for an app's builds at most this often; between two asks the stored answer is used. */
const APP_INFO_MAX_AGE_MS = 10 * 60_000;
/** An app's info is a few KB: a run that takes longer than this is stuck. */
const APP_INFO_TIMEOUT_MS = 2 * 60_000;
/** After a failed ask, Steam is not asked again for that app for this long: a read (any viewer's) cannot make SteamCMD run in a loop. */
const APP_INFO_FAILURE_TTL_MS = 2 * 60_000;

/** What an install works on: the server, its game's Steam apps, and the installation (its executable's folder). */
export interface InstallTarget {
  row: ServerRow;
  steam: SteamDeclaration;
  appId: string;
  installDir: string;
}

/**
 * Installing and updating a server's dedicated server with SteamCMD: queued as a `steam.install` job on
 * the node that owns the server (its executor: executor.ts), and the installed build read back from the
 * app manifest SteamCMD leaves, compared with the newest Steam has for that branch.
 */
@injectable()
export class InstallService {
  /** Per app: when its last ask failed (this node's memory: each node asks SteamCMD on its own). */
  private readonly appInfoFailedAt = new Map<string, number>();
  /** The ask of a read under way: reads never queue a second one, whatever the app. */
  private asking: Promise<unknown> | null = null;

  constructor(
    @inject(TOKENS.Repositories) private readonly repos: Repositories,
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: SteamSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(BackgroundJobService) private readonly jobs: BackgroundJobService,
    @inject(SteamCmdService) private readonly steamcmd: SteamCmdService,
    @inject(BranchPasswords) private readonly passwords: BranchPasswords,
  ) {}

  async target(serverId: number): Promise<InstallTarget> {
    const row = await this.repos.servers.find(serverId);
    if (!row) throw new ApiError('NOT_FOUND', `no server ${serverId}`);
    const steam = this.adapters.get(row.game_type).steam;
    if (!steam) throw new ApiError('NOT_SUPPORTED', `${row.game_type} declares no Steam app: its server is not installed through Steam`);
    return { row, steam, appId: String(steam.server_app_id), installDir: installationOf(row.exe_path) };
  }

  /**
   * POST /servers/{id}/install: the job queued under the locks of the server and of every server sharing
   * its installation (a start of any of them cannot slip in between), all of them stopped.
   */
  async request(serverId: number, body: InstallRequest | undefined, actor: Actor): Promise<{ job_id: number }> {
    const sharing = await this.sharers((await this.target(serverId)).row);
    return this.underLocks([serverId, ...sharing], async () => {
      const { row, steam, appId, installDir } = await this.target(serverId);
      await this.assertAllStopped(row, (message) => new ApiError('SERVER_NOT_STOPPED', `${message} before installing`));
      const branch = body?.branch ?? 'public';
      const declared = steam.branches.find((b) => b.name === branch);
      if (!declared) {
        const names = steam.branches.map((b) => b.name).join(', ');
        throw new ApiError('VALIDATION_ERROR', `branch: ${row.game_type} has no branch ${JSON.stringify(branch)}; it has ${names}`);
      }
      const branchPassword = body?.branch_password;
      if (declared.password_required && branchPassword === undefined)
        throw new ApiError('VALIDATION_ERROR', `branch_password: branch ${branch} is protected by a password`);
      assertSteamFolder(
        'the installation folder',
        installDir,
        "move the server's installation (its exe_path's folder) to such a folder",
        true,
      );
      // The runscript lies under it, and its path is on SteamCMD's command line.
      assertSteamFolder('GARRISON_STEAM_DIR', this.settings.steamDir, 'set it to such a folder (or move it there) and restart the service');
      // Refuses, without repeating it, a value SteamCMD would misread (a leading +, a quote, a line break).
      steamArguments({ installDir, login: { anonymous: true }, work: { kind: 'app_update', appId, branch, branchPassword } });
      if (!steam.anonymous_server && !(await this.repos.steamAccount.get())) throw accountRequired();
      const active = await this.activeInstall(row);
      if (active) throw new ApiError('CONFLICT', `an install of ${active.what} is queued or running already (job ${active.jobId})`);
      const ref = branchPassword === undefined ? null : this.passwords.hold(branchPassword);
      try {
        const payload = { app_id: appId, branch, ...(ref === null ? {} : { protected_branch_ref: ref }) };
        return { job_id: (await this.jobs.enqueue(INSTALL_JOB, payload, serverId, actor)).id };
      } catch (err) {
        if (ref !== null) this.passwords.take(ref);
        throw err;
      }
    });
  }

  /**
   * A start of a server refused while its install is queued or running, and while the last install of its
   * installation did not complete (a half-downloaded server): registered before each start's files.
   */
  async assertStartable(serverId: number): Promise<void> {
    const row = await this.repos.servers.find(serverId);
    if (!row) return;
    const active = await this.activeInstall(row);
    if (active)
      throw new ApiError('CONFLICT', `${active.what} is being installed or updated (job ${active.jobId}): start it once that job ended`);
    const mark = await this.repos.steamInstallations.incomplete(row.node_id ?? '', installationOf(row.exe_path));
    if (!mark) return;
    const job = await this.repos.backgroundJobs.find(mark.job_id);
    const how = !job ? 'did not complete' : job.error_code ? `${job.status} (${job.error_code})` : job.status;
    throw new ApiError(
      'INSTALL_INCOMPLETE',
      `server ${serverId}'s installation is incomplete: install job ${mark.job_id} ${how}; ` +
        `install it again (POST /api/servers/${serverId}/install) before starting it`,
    );
  }

  /** The other servers of this node that run from `row`'s installation: one install changes the files of all. */
  async sharers(row: ServerRow): Promise<number[]> {
    if (row.node_id === null) return [];
    return sharingWith(row, await this.repos.servers.installations([row.node_id])).map((s) => s.id);
  }

  /** Throws `refuse(message)` unless the server and every server sharing its installation are stopped. */
  async assertAllStopped(row: ServerRow, refuse: (message: string) => Error): Promise<void> {
    if (!IDLE_STATUSES.includes(row.status)) throw refuse(`server ${row.id} is ${row.status}; stop it`);
    for (const id of await this.sharers(row)) {
      const other = await this.repos.servers.find(id);
      if (other && !IDLE_STATUSES.includes(other.status))
        throw refuse(`server ${id} (${JSON.stringify(other.name)}) runs from this installation too and is ${other.status}; stop it`);
    }
  }

  /** An install queued or running for the server's installation (its own, or a sharer's): which, or null. */
  private async activeInstall(row: ServerRow): Promise<{ jobId: number; what: string } | null> {
    for (const id of [row.id, ...(await this.sharers(row))]) {
      const [job] = await this.repos.backgroundJobs.activeOf(id, INSTALL_JOB);
      if (job)
        return { jobId: job.id, what: id === row.id ? `server ${id}` : `the installation server ${row.id} shares with server ${id}` };
    }
    return null;
  }

  /** Runs `fn` holding the lifecycle locks of all `ids`, taken in one order (two such callers never wait on each other). */
  private underLocks<T>(ids: readonly number[], fn: () => Promise<T>): Promise<T> {
    const [first, ...rest] = [...new Set(ids)].sort((a, b) => a - b);
    return first === undefined ? fn() : this.locks.run(first, () => this.underLocks(rest, fn));
  }

  /** Before SteamCMD writes into an installation: marked incomplete until an install of it succeeds. */
  markIncomplete(target: InstallTarget, jobId: number): Promise<IncompleteInstallRow | null> {
    const mark = { node_id: target.row.node_id ?? '', install_dir: target.installDir, job_id: jobId, since: isoNow(this.clock) };
    return this.repos.steamInstallations.markIncomplete(mark);
  }

  /** After an install: complete (`previous` undefined), or back as it was when SteamCMD wrote nothing into it. */
  async settle(target: InstallTarget, previous?: IncompleteInstallRow | null): Promise<void> {
    const nodeId = target.row.node_id ?? '';
    if (previous === undefined) await this.repos.steamInstallations.clear(nodeId, target.installDir);
    else await this.repos.steamInstallations.restore(nodeId, target.installDir, previous);
  }

  /** GET /servers/{id}/install. */
  /** `maxAgeMs`: how old Steam's stored answer may be (a schedule asks for a fresher one than a read). */
  async state(serverId: number, maxAgeMs = APP_INFO_MAX_AGE_MS): Promise<InstallState> {
    const { appId, installDir } = await this.target(serverId);
    const manifest = await readAppManifest(installDir, appId);
    const newest = manifest ? await this.newestBuilds(appId, maxAgeMs) : null;
    const latest = manifest && newest ? newest[manifest.branch] : undefined;
    return {
      build_id: manifest?.buildId ?? null,
      branch: manifest?.branch ?? null,
      installed_at: manifest?.lastUpdated ?? null,
      update_available: manifest && latest !== undefined ? latest !== manifest.buildId : null,
    };
  }

  /**
   * Steam's current build of each branch of an app: the stored answer while younger than `maxAgeMs`, else
   * asked anew (`+app_info_print`, logged in anonymously: an app's info is public) when SteamCMD is free,
   * no other read is asking, and the app's last ask did not fail within APP_INFO_FAILURE_TTL_MS. So a read
   * (GET /servers/{id}/install is any viewer's) runs SteamCMD at most once per app every few minutes.
   * Null when unknown: never asked, and SteamCMD busy or failing.
   */
  async newestBuilds(appId: string, maxAgeMs = APP_INFO_MAX_AGE_MS): Promise<Record<string, string> | null> {
    const stored = await this.repos.steamAppInfo.get(appId);
    if (stored && this.clock.now() - Date.parse(stored.checked_at) < maxAgeMs) return stored.builds;
    const failedAt = this.appInfoFailedAt.get(appId);
    if (failedAt !== undefined && this.clock.now() - failedAt < APP_INFO_FAILURE_TTL_MS) return stored?.builds ?? null;
    if (this.asking || !this.steamcmd.idle) return stored?.builds ?? null;
    const problem = steamFolderProblem(this.settings.steamDir);
    if (problem !== null) {
      this.logger.warn({ app_id: appId, reason: `GARRISON_STEAM_DIR ${problem}` }, "Steam's builds of the app are not asked for");
      return stored?.builds ?? null;
    }
    const asked = this.askAppInfo(appId);
    this.asking = asked;
    let builds: Record<string, string> | null = null;
    try {
      builds = await asked;
    } finally {
      this.asking = null;
      if (builds) this.appInfoFailedAt.delete(appId);
      else this.appInfoFailedAt.set(appId, this.clock.now());
    }
    return builds ?? stored?.builds ?? null;
  }

  /** One `+app_info_print` run: the builds, stored; null when it failed or said nothing readable. */
  private async askAppInfo(appId: string): Promise<Record<string, string> | null> {
    const quiet = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };
    try {
      const work = { kind: 'app_info', appId } as const;
      const ran = await this.steamcmd.run({ installDir: this.settings.steamDir, work }, quiet, {
        anonymousAllowed: true,
        anonymousOnly: true,
        timeoutMs: APP_INFO_TIMEOUT_MS,
      });
      const info = ran.appInfo === null ? null : parseAppInfo(ran.appInfo);
      if (!info) return null;
      const builds = Object.fromEntries(Object.entries(info.branches).map(([name, b]) => [name, b.buildid]));
      await this.repos.steamAppInfo.put({ app_id: appId, builds, checked_at: isoNow(this.clock) });
      return builds;
    } catch (err) {
      if (!(err instanceof JobFailure)) throw err;
      this.logger.warn({ app_id: appId, code: err.code, reason: err.message }, "Steam's builds of the app could not be read");
      return null;
    }
  }
}
