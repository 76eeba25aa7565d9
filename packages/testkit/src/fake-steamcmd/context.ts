import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readState, type SteamWorldState } from './state.js';

/**
 * What steamcmd's exit code says. Valve documents none; these are the ones seen from the real one (login
 * failures 5, failed app updates 8, LinuxGSM's list), and 10 for a failed Workshop download (the fake's
 * choice: the real one keeps going after one, see the README).
 */
export const EXIT = { ok: 0, error: 1, login: 5, app: 8, workshop: 10 } as const;

export interface Login {
  username: string;
  anonymous: boolean;
}

/** A command's outcome: its exit code (0 done) or `quit`. */
export type Outcome = number | 'quit';

/** The running steamcmd as each command sees it. */
export class SteamConsole {
  installDir: string | null = null;
  login: Login | null = null;
  shutdownOnFailed = false;
  noPromptForPassword = false;

  constructor(
    readonly statePath: string,
    /** The folder of the `steamcmd` executable: where it keeps its logs and, without force_install_dir, its downloads. */
    readonly exeDir: string,
    private readonly write: (text: string) => void,
  ) {}

  out(line: string): void {
    this.write(`${line}\n`);
  }

  /** The world now: each command reads it anew, so that a test's change between runs (or during one) counts. */
  world(): SteamWorldState {
    return readState(this.statePath);
  }

  /** Where downloads and `steamapps/` go: force_install_dir, or steamcmd's own folder. */
  root(): string {
    return this.installDir ?? this.exeDir;
  }

  steamapps(): string {
    return join(this.root(), 'steamapps');
  }

  /** The pause between two progress lines (the state's `delayMs`). */
  async pause(world: SteamWorldState): Promise<void> {
    if (world.delayMs > 0) await delay(world.delayMs);
  }
}
