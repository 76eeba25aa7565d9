import { injectable } from 'tsyringe';

/** What a running job is given: its input, the signal that says stop, and where it reports. */
export interface JobContext {
  jobId: number;
  serverId: number | null;
  payload: Record<string, unknown>;
  /** Aborts when the job is cancelled or the service stops: the executor stops its work and returns (or throws). */
  signal: AbortSignal;
  /** 0..1; written (and told over the WebSocket) at most about once a second, however often it is called. */
  progress(fraction: number): void;
  /** One line of its log (the last 100 are kept, each cut to 500 characters): never a password. */
  log(line: string): void;
}

/** Runs one kind of job: resolves when it is done, throws (a JobFailure, with its code) when it failed. */
export interface JobExecutor {
  execute(context: JobContext): Promise<void>;
}

/** A failure an executor names: its code and message are the job's `error` as the API shows it. */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

/**
 * The kinds of job this node can run, each registered by its feature at start (`steam.install`…). A node
 * claims only jobs of the kinds registered here, so a job never starts on a node before its executor is.
 */
@injectable()
export class JobExecutors {
  private readonly byKind = new Map<string, JobExecutor>();

  register(kind: string, executor: JobExecutor): void {
    if (!/^[a-z][a-z0-9_.-]{0,63}$/.test(kind)) throw new Error(`job kind ${JSON.stringify(kind)}: lower-case letters, digits, . _ -`);
    if (this.byKind.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.byKind.set(kind, executor);
  }

  get(kind: string): JobExecutor | undefined {
    return this.byKind.get(kind);
  }

  kinds(): string[] {
    return [...this.byKind.keys()];
  }
}
