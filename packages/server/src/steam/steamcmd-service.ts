import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, injectable } from 'tsyringe';
import { ApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Logger } from 'pino';
import { settlesWithin, type Clock } from '../jobs/clock.js';
import { INTERRUPTED } from '../background-jobs/service.js';
import type { JobContext } from '../background-jobs/executors.js';
import { JobFailure } from '../background-jobs/executors.js';
import type { SteamCall } from './arguments.js';
import { runSteamCmd, type SteamRunResult } from './runner.js';
import { steamcmdEnvironment } from './environment.js';
import { SteamCmdPidFile } from './pid-file.js';
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

/** How long a stop waits for SteamCMD to end: past the runner's grace between SIGTERM and SIGKILL. */
const STOP_WAIT_MS = 12_000;

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
  /** Aborts every run when the service stops: SteamCMD never outlives it. */
  private readonly stopping = new AbortController();

  constructor(
    @inject(TOKENS.Settings) private readonly settings: SteamSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(SteamAccountService) private readonly accounts: SteamAccountService,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  private get pidFile(): SteamCmdPidFile {
    return new SteamCmdPidFile(join(this.settings.steamDir, 'steamcmd.pid'));
  }

  /**
   * Before the first run: a SteamCMD that the last run of the service left running (it crashed, or was
   * killed) is ended, so that two never work on the same files, and the runscripts it left are removed.
   */
  async start(): Promise<void> {
    await mkdir(this.settings.steamDir, { recursive: true });
    const killed = this.pidFile.killLeftover();
    if (killed !== null) this.logger.warn({ pid: killed }, 'a SteamCMD left running by the last stop of the service was killed');
    await rm(join(this.settings.steamDir, 'private'), { recursive: true, force: true });
  }

  /** Stops the run under way (SIGTERM to its process group, SIGKILL after the grace) and waits for its end. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await settlesWithin(this.clock, this.tail, STOP_WAIT_MS, 'SteamCMD to stop');
  }

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
    if (this.stopping.signal.aborted) throw new JobFailure(INTERRUPTED.code, INTERRUPTED.message);
    if (ctx.signal.aborted) throw new JobFailure('JOB_CANCELLED', 'cancelled before SteamCMD started');
    const login = await this.login(options);
    // Not the account's name: viewers read a job's log.
    ctx.log(`Garrison: SteamCMD logs in ${login.anonymous ? 'anonymously' : 'with the Steam account'}`);
    try {
      return await runSteamCmd(
        { installDir: work.installDir, login, work: work.work },
        {
          executable: this.settings.steamcmdPath,
          clock: this.clock,
          scriptDir: await this.privateDir(),
          env: steamcmdEnvironment(process.env, this.settings.steamDir),
          signal: AbortSignal.any([ctx.signal, this.stopping.signal]),
          pidFile: this.pidFile,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          onLine: (line) => {
            if (line.trim() !== '' && !PROGRESS_LINE.test(line)) ctx.log(line);
          },
          onProgress: (fraction) => ctx.progress(fraction),
        },
      );
    } catch (err) {
      if (err instanceof ApiError) throw new JobFailure(err.code, err.message);
      if (this.stopping.signal.aborted && !ctx.signal.aborted) throw new JobFailure(INTERRUPTED.code, INTERRUPTED.message);
      // The disk refused (its private folder, the pid file): the job's failure, never a request's 500.
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
        throw new JobFailure('STEAMCMD_FAILED', `SteamCMD's files under GARRISON_STEAM_DIR could not be written (${code})`);
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
