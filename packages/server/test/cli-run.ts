import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startProcess, waitFor, withDeadline, type TestProcess } from '@garrison/testkit';

export const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/** The environment of a CLI run: nothing of the test runner's own GARRISON_ settings leaks in. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GARRISON_')));
  return { ...env, GARRISON_RATE_LIMIT: '0', GARRISON_LOGIN_RATE_LIMIT: '0', ...extra };
}

/** Runs `garrison ARGS` to its end (with a deadline), feeding `input` on standard input. */
export async function garrison(args: string[], options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {}) {
  const child = spawn(process.execPath, [...process.execArgv, CLI, ...args], { env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const code = await withDeadline(exited, options.timeoutMs ?? 30_000, `garrison ${args.join(' ')}`);
    return { code, stdout, stderr };
  } finally {
    child.kill('SIGKILL');
  }
}

/** The URL a service process says it listens on, once it says so. */
export const listeningUrl = (service: TestProcess, what: string, timeoutMs = 30_000) =>
  waitFor(() => service.stdout.map((l) => /listening on (http:\/\/[^\s"]+)/.exec(l)?.[1]).find(Boolean), { timeoutMs, what });

/** `garrison serve` as its own process, once it listens: its URL, and the process to stop. */
export async function serveProcess(
  args: string[],
  env: Record<string, string> = {},
  listenTimeoutMs = 30_000,
): Promise<{ url: string; process: TestProcess }> {
  const process_ = startProcess(process.execPath, [...process.execArgv, CLI, 'serve', '--port', '0', ...args], { env: cliEnv(env) });
  try {
    const url = await listeningUrl(process_, 'garrison serve to listen', listenTimeoutMs);
    return { url, process: process_ };
  } catch (err) {
    await process_.kill();
    throw new Error(`${(err as Error).message}; it wrote: ${process_.stdout.join('\n')} ${process_.stderr.join('')}`, { cause: err });
  }
}
