import { freePort } from './ports.js';
import { startProcess, type TestProcess } from './processes.js';
import { waitFor } from './waiting.js';

/**
 * A NATS server of the test's own (Debian's `nats-server`), on a free port of loopback, ready; with its
 * monitoring endpoint (`/subsz?subs=1` lists the subscriptions) at `monitorUrl`.
 */
export async function startNatsServer(port?: number): Promise<{ url: string; port: number; monitorUrl: string; process: TestProcess }> {
  const chosen = port ?? (await freePort());
  const monitor = await freePort();
  const process = startProcess('nats-server', ['-a', '127.0.0.1', '-p', String(chosen), '-m', String(monitor)]);
  try {
    await waitFor(
      async () => {
        const exited = await Promise.race([process.exited, Promise.resolve(null)]);
        if (exited !== null)
          throw new Error(`nats-server exited (${exited}): ${process.stderr.join('')} — is it installed (apt-get install nats-server)?`);
        return process.stderr.join('').includes('Server is ready');
      },
      { timeoutMs: 15_000, what: 'nats-server to be ready' },
    );
  } catch (err) {
    await process.kill();
    throw err;
  }
  return { url: `nats://127.0.0.1:${chosen}`, port: chosen, monitorUrl: `http://127.0.0.1:${monitor}`, process };
}
