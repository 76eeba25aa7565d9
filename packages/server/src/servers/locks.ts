import { injectable } from 'tsyringe';
import { Mutex } from 'async-mutex';

/**
 * One lock per server for what changes its lifecycle (start, stop, kill, delete): there are never two
 * processes for one server, and a delete cannot slip in while a start is under way.
 */
@injectable()
export class ServerLocks {
  private readonly locks = new Map<number, Mutex>();

  run<T>(serverId: number, fn: () => Promise<T>): Promise<T> {
    let lock = this.locks.get(serverId);
    if (!lock) this.locks.set(serverId, (lock = new Mutex()));
    return lock.runExclusive(fn);
  }
}
