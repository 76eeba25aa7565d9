import { randomUUID } from 'node:crypto';
import { injectable } from 'tsyringe';

/** How many held passwords are kept at most: a job cancelled while queued never takes its own. */
const MAX_HELD = 100;

/**
 * Branch passwords of queued installs, held in this node's memory only: a job's payload is kept and
 * shown, so it carries a reference instead. The install endpoint is served by the node that owns the
 * server, whose worker runs the job: the password never crosses to another node, nor reaches the database.
 * A restart forgets them, and the job then fails asking for the install to be sent again.
 */
@injectable()
export class BranchPasswords {
  private readonly held = new Map<string, string>();

  hold(password: string): string {
    const ref = randomUUID();
    this.held.set(ref, password);
    while (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
    return ref;
  }

  /** The password, once: the first take forgets it. */
  take(ref: string): string | undefined {
    const password = this.held.get(ref);
    this.held.delete(ref);
    return password;
  }
}
