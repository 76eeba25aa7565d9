import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@garrison/core';
import type { Clock } from '../jobs/clock.js';
import { redact, secretsOf, steamArguments, steamScript, withoutAccountName, type SteamCall } from './arguments.js';
import { isRetryable } from './failures.js';
import { OutputTail, SteamOutputReader, type SteamEvent } from './output.js';
import { runProcess, type ProcessEnd, type ProcessLimits } from './process.js';
import type { SteamCmdPidFile } from './pid-file.js';

/**
 * One SteamCMD job: a run of the executable, and for Workshop items the runs after it that retry the
 * items that timed out (Steam's big items often do, then succeed), each after a longer wait. Every line
 * that leaves here — the callbacks, the tail, the errors — has the call's secrets masked, and the account's
 * name.
 */

export interface SteamRunOptions extends Partial<ProcessLimits> {
  /** The `steamcmd` executable (GARRISON_STEAMCMD_PATH). */
  executable: string;
  clock: Clock;
  /** Aborting cancels the job: the running SteamCMD is stopped, a wait for a retry ends. */
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Where each run's runscript (which holds the secrets) goes, in a folder of its own only the service can
   * read, removed when the run ends: the system's temporary folder when not given.
   */
  scriptDir?: string;
  /** Where each run's process is recorded while it runs. */
  pidFile?: SteamCmdPidFile;
  /** How many more runs an item that timed out gets. */
  retries?: number;
  /** The wait before the first retry; it doubles for each one after, up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Where the last lines go (the caller keeps it to show a failed job's log); a new one of 200 lines when not given. */
  tail?: OutputTail;
  /** Every line SteamCMD prints, redacted. */
  onLine?: (line: string) => void;
  /** The job's progress, 0..1. */
  onProgress?: (fraction: number) => void;
}

const STEAM_RUN_DEFAULTS: Required<ProcessLimits> & { retries: number; retryDelayMs: number; maxRetryDelayMs: number } = {
  timeoutMs: 6 * 60 * 60_000,
  // A big Workshop item downloads without a line for a long time: the idle limit is for a stuck run.
  idleTimeoutMs: 30 * 60_000,
  killGraceMs: 10_000,
  retries: 3,
  retryDelayMs: 30_000,
  maxRetryDelayMs: 5 * 60_000,
};

type ItemResult =
  | { itemId: string; status: 'downloaded'; path: string; bytes: number; attempts: number }
  | { itemId: string; status: 'failed'; error: ApiError; attempts: number };

export interface SteamRunResult {
  /** The app an `app_update` installed (or found up to date). */
  appInstalled: boolean;
  /** The VDF `+app_info_print` printed (app_info). */
  appInfo: string | null;
  /** One per Workshop item asked for, in the order asked. */
  items: ItemResult[];
  /** The last lines, redacted. */
  log: string[];
}

/** What one run of the executable said. */
interface RunOutcome {
  end: ProcessEnd;
  /** The first failure of the whole run (a Steam Guard prompt wins: it is what the admin must answer). */
  failure: ApiError | null;
  installed: Set<string>;
  appInfo: string | null;
  items: Map<string, { path: string; bytes: number } | { error: ApiError }>;
  lastLine: string | null;
}

/** Runs one SteamCMD job to its end. Throws the job's failure as an ApiError; per-item failures are results. */
export async function runSteamCmd(call: SteamCall, options: SteamRunOptions): Promise<SteamRunResult> {
  steamArguments(call); // refuses a bad value before anything runs
  const o = { ...STEAM_RUN_DEFAULTS, ...withoutUndefined(options) };
  const tail = options.tail ?? new OutputTail();
  const run = (c: SteamCall, progress: (f: number) => void) => runOnce(c, o, tail, progress);
  const { work } = call;
  if (work.kind !== 'workshop') {
    const outcome = await run(call, (f) => options.onProgress?.(f));
    const ok = work.kind === 'app_update' ? outcome.installed.has(work.appId) : outcome.appInfo !== null;
    if (outcome.failure) throw outcome.failure;
    if (!ok) throw endFailure(outcome, o, work.kind === 'app_update' ? `installed app ${work.appId}` : `printed app ${work.appId}'s info`);
    options.onProgress?.(1);
    return { appInstalled: outcome.installed.has(work.appId), appInfo: outcome.appInfo, items: [], log: tail.lines };
  }

  const results = new Map<string, ItemResult>();
  const attempts = new Map(work.items.map((item) => [item, 0]));
  let pending = [...work.items];
  for (let round = 0; pending.length > 0;) {
    const settledBefore = results.size;
    pending.forEach((item) => attempts.set(item, attempts.get(item)! + 1));
    const outcome = await run({ ...call, work: { ...work, items: pending } }, (f) =>
      options.onProgress?.((results.size + f) / work.items.length),
    );
    if (outcome.failure) throw outcome.failure;
    const timedOut: string[] = [];
    const unreached: string[] = [];
    for (const item of pending) {
      const said = outcome.items.get(item);
      const tries = attempts.get(item)!;
      if (!said) unreached.push(item);
      else if ('path' in said) results.set(item, { itemId: item, status: 'downloaded', ...said, attempts: tries });
      else if (isRetryable(said.error) && tries <= o.retries) timedOut.push(item);
      else results.set(item, { itemId: item, status: 'failed', error: said.error, attempts: tries });
    }
    options.onProgress?.(results.size / work.items.length);
    // SteamCMD stops at the first failed item (@ShutdownOnFailedCommand): the items after it were not
    // tried, and go into the next run. A run that said nothing of any item is the end of the job.
    const saidNothing = timedOut.length === 0 && results.size === settledBefore;
    if (unreached.length > 0 && (saidNothing || outcome.end.stopped)) {
      const error = endFailure(outcome, o, `downloaded Workshop item ${unreached.join(', ')}`);
      if (saidNothing && outcome.end.code !== 0) throw error;
      for (const item of unreached) results.set(item, { itemId: item, status: 'failed', error, attempts: attempts.get(item)! });
      unreached.length = 0;
    }
    unreached.forEach((item) => attempts.set(item, attempts.get(item)! - 1)); // not tried: no attempt used
    pending = [...timedOut, ...unreached];
    if (timedOut.length > 0) {
      const delay = Math.min(o.maxRetryDelayMs, o.retryDelayMs * 2 ** round);
      round += 1;
      const note = `Garrison: Workshop item ${timedOut.join(', ')} timed out; another run in ${Math.round(delay / 1000)} s`;
      tail.push(note);
      options.onLine?.(note);
      await o.clock.sleep(delay, o.signal, 'steamcmd retry');
    }
  }
  return { appInstalled: false, appInfo: null, items: work.items.map((item) => results.get(item)!), log: tail.lines };
}

type Resolved = typeof STEAM_RUN_DEFAULTS & SteamRunOptions;

/** One run of the executable for `call`, its output read into what it said. */
async function runOnce(call: SteamCall, o: Resolved, tail: OutputTail, onProgress: (fraction: number) => void): Promise<RunOutcome> {
  const secrets = secretsOf(call);
  const mask = (text: string) => withoutAccountName(redact(text, secrets), call);
  const outcome: RunOutcome = {
    end: { code: null, signal: null, stopped: null },
    failure: null,
    installed: new Set(),
    appInfo: null,
    items: new Map(),
    lastLine: null,
  };
  const said = (event: SteamEvent) => {
    if (event.type === 'progress') onProgress(event.fraction);
    else if (event.type === 'app_installed') outcome.installed.add(event.appId);
    else if (event.type === 'app_info') outcome.appInfo = event.text;
    else if (event.type === 'item_downloaded') outcome.items.set(event.itemId, { path: event.path, bytes: event.bytes });
    else if (event.type === 'item_failed') outcome.items.set(event.itemId, { error: event.error });
    else if (event.type === 'failure' && (!outcome.failure || event.error.code === 'STEAM_GUARD_REQUIRED')) outcome.failure = event.error;
  };
  const reader = new SteamOutputReader(mask, (raw, events) => {
    const line = mask(raw);
    if (line.trim() !== '') outcome.lastLine = line;
    tail.push(
      line,
      events.some((e) => e.type === 'progress'),
    );
    o.onLine?.(line);
    events.forEach(said);
  });
  // The commands go in a runscript, not on the command line: /proc/<pid>/cmdline is anyone's to read.
  const dir = await mkdtemp(join(o.scriptDir ?? tmpdir(), 'steamcmd-')); // 0700
  try {
    const script = join(dir, 'run.txt');
    await writeFile(script, steamScript(steamArguments(call)), { mode: 0o600, flag: 'wx' });
    const spec = { executable: o.executable, args: ['+runscript', script], cwd: o.cwd, env: o.env, pidFile: o.pidFile };
    outcome.end = await runProcess(spec, o, o.clock, o.signal, (chunk, stream) => reader.feed(chunk, stream));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  reader.end();
  return outcome;
}

/** Why a run that did not do `what` failed: a time limit, or an exit without a line that says. */
function endFailure(outcome: RunOutcome, o: Resolved, what: string): ApiError {
  const { end, lastLine } = outcome;
  if (end.stopped === 'idle') {
    return new ApiError('STEAMCMD_FAILED', `SteamCMD printed nothing for ${minutes(o.idleTimeoutMs)} and was stopped before it ${what}`);
  }
  if (end.stopped === 'timeout') {
    return new ApiError('STEAMCMD_FAILED', `SteamCMD ran for ${minutes(o.timeoutMs)}, its limit, and was stopped before it ${what}`);
  }
  const how = end.code !== null ? `exited with code ${end.code}` : `was ended by ${end.signal}`;
  const last = lastLine === null ? 'it printed nothing' : `its last line: ${lastLine}`;
  return new ApiError('STEAMCMD_FAILED', `SteamCMD ${how} before it ${what} (${last}): read the job's log and retry`);
}

const minutes = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
