import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Clock } from '../jobs/clock.js';
import type { JobContext } from '../background-jobs/executors.js';
import { JobFailure } from '../background-jobs/executors.js';
import type { SteamCall } from './arguments.js';
import { runSteamCmd, type SteamRunResult } from './runner.js';
import { steamcmdEnvironment } from './environment.js';
import type { SteamSettings } from './settings.js';
import { SteamAccountService } from './account/service.js';

/** What a run does: where (`+force_install_dir`) and what (an app update, Workshop items, an app's info). */
export interface SteamCmdWork {
  installDir: string;
  work: SteamCall['work'];
}

/** Where a run reports: a background job's context, or anything shaped like it. */
export type SteamRunContext = Pick<JobContext, 'signal' | 'progress' | 'log'>;

export interface SteamLoginOptions {
  /** Whether the app may be fetched with Steam's anonymous login (the adapter's `anonymous_server`) when no account is set. */
  anonymousAllowed: boolean;
  /** Log in anonymously even with an account (an app's info is public: no login of the account spent on it). */
  anonymousOnly?: boolean;
  /** A shorter limit for the whole run than a download's hours (an app's info). */
  timeoutMs?: number;
}

/** A progress redraw: the job's progress says it, the log keeps the lines that say something else. */
const PROGRESS_LINE = /^\s*Update state \(0x[0-9a-f]+\)/i;

/**
 * Runs SteamCMD for a job, one run at a time on this node (two at once would share SteamCMD's own files):
 * the executable from GARRISON_STEAMCMD_PATH, the login from the Steam account (its pending Guard code taken
 * by this run) or Steam's anonymous one where the app allows it, the output's lines to the job's log and
 * its progress to the job's, every line masked of the password. A failure is a JobFailure with the
 * STEAM_* code the runner read; STEAM_ACCOUNT_REQUIRED when an account is needed and none is set.
 */
@injectable()
export class SteamCmdService {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(
    @inject(TOKENS.Settings) private readonly settings: SteamSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(SteamAccountService) private readonly accounts: SteamAccountService,
  ) {}

  /** Whether no run is under way or waiting: a caller that must not wait (a read) runs only then. */
  get idle(): boolean {
    return this.waiting === 0;
  }

  /** Runs `work` once its turn comes (after the runs asked for before it). */
  run(work: SteamCmdWork, ctx: SteamRunContext, options: SteamLoginOptions): Promise<SteamRunResult> {
    this.waiting += 1;
    const turn = this.tail.then(() => this.runNow(work, ctx, options));
    // The next run goes on whatever this one's outcome: its caller hears of a failure from `turn`.
    this.tail = Promise.allSettled([turn]);
    return turn.finally(() => (this.waiting -= 1));
  }

  private async runNow(work: SteamCmdWork, ctx: SteamRunContext, options: SteamLoginOptions): Promise<SteamRunResult> {
    if (ctx.signal.aborted) throw new JobFailure('JOB_CANCELLED', 'cancelled before SteamCMD started');
    const login = await this.login(options);
    ctx.log(`Garrison: SteamCMD logs in ${login.anonymous ? 'anonymously' : `as ${login.username}`}`);
    try {
      return await runSteamCmd(
        { installDir: work.installDir, login, work: work.work },
        {
          executable: this.settings.steamcmdPath,
          clock: this.clock,
          scriptDir: await this.privateDir(),
          env: steamcmdEnvironment(process.env, this.settings.steamDir),
          signal: ctx.signal,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          onLine: (line) => {
            if (line.trim() !== '' && !PROGRESS_LINE.test(line)) ctx.log(line);
          },
          onProgress: (fraction) => ctx.progress(fraction),
        },
      );
    } catch (err) {
      if (err instanceof ApiError) throw new JobFailure(err.code, err.message);
      throw err;
    }
  }

  /** Where the runscripts go (they hold the password): a folder of the steam dir only the service may enter. */
  private async privateDir(): Promise<string> {
    const dir = join(this.settings.steamDir, 'private');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700); // made by an older version, or with another umask
    return dir;
  }

  private async login(options: SteamLoginOptions): Promise<SteamCall['login']> {
    if (options.anonymousOnly) return { anonymous: true };
    const account = await this.accounts.credentials().catch((err: unknown) => {
      if (err instanceof ApiError) throw new JobFailure(err.code, err.message);
      throw err;
    });
    if (account) return { anonymous: false, ...account };
    if (options.anonymousAllowed) return { anonymous: true };
    throw new JobFailure('STEAM_ACCOUNT_REQUIRED', requiredMessage);
  }
}

const requiredMessage =
  "this app cannot be fetched with Steam's anonymous login: set a Steam account that owns it (PUT /api/steam/account)";

/** STEAM_ACCOUNT_REQUIRED, as a request is refused with before any job is queued. */
export const accountRequired = () => new ApiError('STEAM_ACCOUNT_REQUIRED', requiredMessage);
