import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isMissing } from '@garrison/core';
import { liveness, processStartTime, signalGroup } from '../processes/proc.js';

/**
 * The SteamCMD that runs on this node, recorded in the steam dir (`steamcmd.pid`: its pid and start time)
 * from its start to its end. A service that crashed, or was killed, leaves the record of a SteamCMD that may
 * still run, on the same files as the next one: the next start ends it first. The start time tells it from a
 * later process that got the same pid.
 */
export class SteamCmdPidFile {
  constructor(readonly path: string) {}

  record(pid: number): void {
    writeFileSync(this.path, `${JSON.stringify({ pid, start_time: processStartTime(pid) })}\n`, { mode: 0o600 });
  }

  /** Forgets `pid`, when it is the one recorded. */
  clear(pid: number): void {
    if (this.read()?.pid === pid) rmSync(this.path, { force: true });
  }

  /** Kills the SteamCMD recorded and still running (its whole process group); its pid, or null when none ran. */
  killLeftover(): number | null {
    const recorded = this.read();
    rmSync(this.path, { force: true });
    // Without its start time, a pid could be anyone's by now: never killed on a guess.
    if (!recorded?.start_time || liveness(recorded.pid, recorded.start_time) !== 'running') return null;
    signalGroup(recorded.pid, 'SIGKILL');
    return recorded.pid;
  }

  private read(): { pid: number; start_time: string | null } | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const value = JSON.parse(text) as { pid?: unknown; start_time?: unknown };
      const { pid, start_time } = value;
      if (!Number.isInteger(pid) || (pid as number) <= 1) return null;
      return { pid: pid as number, start_time: typeof start_time === 'string' ? start_time : null };
    } catch (err) {
      if (err instanceof SyntaxError) return null; // cut short by the crash it records: nothing to trust
      throw err;
    }
  }
}
