import { mkdtempSync, rmSync } from 'node:fs';
import { after } from 'node:test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeSteamWorld, installFakeSteamcmd, startProcess, withDeadline, type TestProcess } from '../src/index.js';

/** The fake steamcmd run as a real process against a fresh world, in a temporary folder the test removes. */
export interface SteamcmdBench {
  world: FakeSteamWorld;
  exe: string;
  dir: string;
  /** Runs steamcmd with these arguments to its end (30 s at most). */
  run(args: string[], env?: Record<string, string>): Promise<{ code: number | string; lines: string[]; stderr: string }>;
  /** Starts steamcmd and leaves it running. */
  start(args: string[], env?: Record<string, string>): TestProcess;
  remove(): Promise<void>;
}

async function steamcmdBench(): Promise<SteamcmdBench> {
  const dir = mkdtempSync(join(tmpdir(), 'garrison-steamcmd-test-'));
  const world = FakeSteamWorld.create({ dir: join(dir, 'world') });
  const { executables } = await installFakeSteamcmd(join(dir, 'steamcmd'));
  const started: TestProcess[] = [];
  const start = (args: string[], env: Record<string, string> = {}) => {
    const proc = startProcess(executables[0], args, { env: { ...process.env, ...world.env(), ...env } });
    started.push(proc);
    return proc;
  };
  return {
    world,
    exe: executables[0],
    dir,
    start,
    run: async (args, env) => {
      const proc = start(args, env);
      const code = await withDeadline(proc.exited, 30_000, `steamcmd ${args.join(' ')}`);
      return { code, lines: proc.stdout, stderr: proc.stderr.join('') };
    },
    remove: async () => {
      for (const proc of started) await proc.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `+@NoPromptForPassword 1 +@ShutdownOnFailedCommand 1 +force_install_dir DIR +login …`, as Garrison's runner starts. */
export function loginArgs(installDir: string, login: string[]): string[] {
  return ['+@NoPromptForPassword', '1', '+@ShutdownOnFailedCommand', '1', '+force_install_dir', installDir, '+login', ...login];
}

/** A bench per call, each removed (its processes killed, its folder gone) after the file's tests. */
export function steamcmdBenches(): () => Promise<SteamcmdBench> {
  const benches: SteamcmdBench[] = [];
  after(async () => {
    for (const bench of benches) await bench.remove();
  });
  return async () => {
    const bench = await steamcmdBench();
    benches.push(bench);
    return bench;
  };
}
