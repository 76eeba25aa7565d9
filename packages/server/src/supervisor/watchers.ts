import { injectable } from 'tsyringe';

/** What else follows a game server's process while it runs (its log, its metrics, its players). */
export interface ProcessWatch {
  /** A process is now supervised: just spawned (its output starts at `outputOffset`), or re-adopted. */
  attached(serverId: number, process: { pid: number; adopted: boolean; outputOffset: number | null }): void;
  /** The process is `gone`, or the service stops and leaves it running (`unwatched`, to be re-adopted). */
  detached(serverId: number, why: 'gone' | 'unwatched'): void;
}

/**
 * The services that follow game processes, registered at their start and told by the supervisor of
 * each process it attaches or lets go; those that start first (before the supervisor adopts the games
 * left running) hear of every one.
 */
@injectable()
export class ProcessWatchers {
  private readonly watches = new Set<{ name: string; watch: ProcessWatch }>();

  add(name: string, watch: ProcessWatch): () => void {
    const entry = { name, watch };
    this.watches.add(entry);
    return () => this.watches.delete(entry);
  }

  /** Tells each watcher; one that throws is reported to `onError` and the others are still told. */
  notify(fn: (w: ProcessWatch) => void, onError: (name: string, err: unknown) => void): void {
    for (const { name, watch } of this.watches) {
      try {
        fn(watch);
      } catch (err) {
        onError(name, err);
      }
    }
  }
}
