import { useEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';
import { GarrisonApiError, type Endpoints, type ResponseOf } from '@garrison/sdk';
import { STEAM_GUARD_CODE_PATTERN } from '@garrison/core';
import { client, forgetAtSignOut, isAdmin } from '../session.js';
import { useLiveEvents } from '../live.js';
import { useQuery } from '../cache/use-query.js';
import { Problem, useAction } from './problem.js';

type Job = ResponseOf<Endpoints['getJob']>;

const ENDED: readonly Job['status'][] = ['done', 'failed', 'cancelled'];
const ended = (status: Job['status']) => ENDED.includes(status);

/**
 * The job each panel started, by `<server>:<purpose>`, kept while the page is open: a tab shown again
 * still follows the download it started. The request is kept too, to send it again after a Guard code.
 */
const started = signal<Record<string, { jobId: number; request: () => Promise<number | null> }>>({});
forgetAtSignOut(() => (started.value = {}));

/** What to do about a failure, for the codes a person can act on (docs/workshop.md, Errors). */
const HINTS: Record<string, string> = {
  STEAM_LOGIN_FAILED: "Correct the Steam account's name or password (Steam account page).",
  STEAM_RATE_LIMITED: 'Steam refuses logins for now: wait (often 30 minutes or more) before trying again.',
  STEAM_NO_SUBSCRIPTION: 'Log in with a Steam account that owns the game.',
  STEAM_DISK_FULL: 'Free space on the disk, then try again.',
  STEAM_NETWORK: "Check the node's network, then try again.",
  STEAM_BRANCH_PASSWORD: "Give the branch's current password, or choose another branch.",
  STEAM_ACCOUNT_REQUIRED: 'Set a Steam account first (Steam account page).',
  STEAMCMD_NOT_FOUND: 'Install SteamCMD on the node, or set GARRISON_STEAMCMD_PATH.',
};

/** The Steam account, or null when none is set (an answer, not a failure). */
export async function steamAccountOrNone() {
  try {
    return await client.steam.account();
  } catch (err) {
    if (err instanceof GarrisonApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * A job started from a panel (an install, a download): `start` sends the request (it answers the job's
 * id, or null when there was nothing to do), the job is followed by its live `job_progress` events and
 * read again when it ends; `onEnd` is told once.
 */
export function useJobRunner(serverId: number, purpose: string, onEnd?: (job: Job) => void) {
  const key = `${serverId}:${purpose}`;
  const mine = started.value[key];
  const jobId = mine?.jobId ?? null;
  const query = useQuery<Job | null>(`job:${serverId}:${jobId ?? 'none'}`, () =>
    jobId === null ? Promise.resolve(null) : client.jobs.get(jobId),
  );
  const job = query.data ?? null;
  const told = useRef<number | null>(null);
  useEffect(() => {
    if (job && ended(job.status) && told.current !== job.id) {
      told.current = job.id;
      onEnd?.(job);
    }
  }, [job?.id, job?.status]);
  // The progress moves with the events (the cache rule reads the job again once it ended).
  useLiveEvents(serverId, {
    job_progress: (event) => {
      if (event.data.job_id !== jobId || ended(event.data.status)) return;
      query.apply((old) => old && { ...old, status: event.data.status, progress: event.data.progress });
    },
  });

  const start = async (request: () => Promise<number | null>): Promise<boolean> => {
    const id = await request();
    if (id === null) return false;
    started.value = { ...started.value, [key]: { jobId: id, request } };
    return true;
  };
  return {
    job,
    running: job !== null && !ended(job.status),
    start,
    /** The same request again (after a Steam Guard code was given). */
    retry: () => (mine ? start(mine.request) : Promise.resolve(false)),
    cancel: () => (jobId === null ? Promise.resolve() : client.jobs.cancel(jobId).then((j) => query.apply(() => j))),
  };
}

type JobRunner = ReturnType<typeof useJobRunner>;

/** The job's progress bar while it runs, and how it ended: its error readable, the Guard code asked for. */
export function JobPanel({ runner, label }: { runner: JobRunner; label: string }) {
  const { job } = runner;
  const action = useAction();
  if (!job) return null;
  const percent = Math.round(job.progress * 100);
  return (
    <div class="job" data-job-status={job.status}>
      {!ended(job.status) && (
        <div class="job-progress">
          <label>
            {label}: {job.status === 'queued' ? 'waiting for SteamCMD' : `${percent} %`}
            <progress value={job.progress} max={1} aria-label={`${label} progress`} />
          </label>
          {isAdmin() && !job.cancel_requested && (
            <button type="button" class="quiet" onClick={() => void action.run(runner.cancel)}>
              Cancel
            </button>
          )}
        </div>
      )}
      {job.status === 'done' && (
        <p class="notice success" role="status">
          {label}: done.
        </p>
      )}
      {job.status === 'cancelled' && <p role="status">{label}: cancelled.</p>}
      {job.status === 'failed' && job.error && (
        <div class="problem" role="alert">
          <span title={job.error.code} data-code={job.error.code}>
            {label} failed: {job.error.message}
            {HINTS[job.error.code] && ` ${HINTS[job.error.code]}`}
          </span>
        </div>
      )}
      {job.status === 'failed' && job.error?.code === 'STEAM_GUARD_REQUIRED' && isAdmin() && <GuardPrompt onRetry={runner.retry} />}
      <Problem error={action.error} onDismiss={action.dismiss} />
    </div>
  );
}

/**
 * Steam asked for a Guard code: the code (from Steam's mail or app) goes with the account (the service
 * never shows the stored password, so it is typed again), then the request that failed is sent again.
 */
function GuardPrompt({ onRetry }: { onRetry: () => Promise<unknown> }) {
  const account = useQuery('steam-account:', steamAccountOrNone);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const username = account.data?.username ?? String(form.get('username'));
    void action.run(async () => {
      await client.steam.setAccount({ username, password: String(form.get('password')), guard_code: String(form.get('guard_code')) });
      account.reload();
      await onRetry();
    });
  };
  return (
    <form class="guard" onSubmit={submit} aria-label="Steam Guard code">
      <p>
        Steam asks for a Steam Guard code for <strong>{account.data?.username ?? 'the account'}</strong>: enter the code from Steam's mail
        or the Steam app, and the account's password, then the request is sent again.
      </p>
      {!account.data && (
        <label>
          Steam username
          <input name="username" required autoComplete="off" />
        </label>
      )}
      <label>
        Steam Guard code
        <input name="guard_code" required pattern={STEAM_GUARD_CODE_PATTERN} autoComplete="one-time-code" />
      </label>
      <label>
        Steam password
        <input name="password" type="password" required autoComplete="off" />
      </label>
      <button type="submit">Send the code and retry</button>
      <Problem error={action.error} onDismiss={action.dismiss} />
    </form>
  );
}
