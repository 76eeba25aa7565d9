import { inject, injectable } from 'tsyringe';
import type { Logger } from 'pino';
import { SYSTEM_ACTOR, type ConfigValues, ifApiError } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { SupervisorSettings } from './settings.js';
import type { DataSettings } from '../db/settings.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import type { Clock } from '../jobs/clock.js';
import { ServerService } from '../servers/service.js';
import { ServerLocks } from '../servers/locks.js';
import { serverContext } from '../servers/context.js';
import { ProcessService } from '../processes/service.js';
import type { ProcessHandle } from '../processes/handle.js';
import { HeadlessClients } from './headless.js';
import { ended, serverKey, ServerStates } from './status.js';

const PROBE_INTERVAL_MS = 500;

/**
 * The readiness probe of a started (or adopted) game (the Supervisor runs it in the background): asked
 * every PROBE_INTERVAL_MS until the game answers, and the server is running, its headless clients
 * started; killed and marked `error` when it does not within `readyTimeoutMs`.
 */
@injectable()
export class ReadinessProbe {
  /** Aborted at the service's stop: a probe waiting between its tries ends at once. */
  private readonly stopping = new AbortController();
  private closed = false;

  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Settings) private readonly settings: SupervisorSettings & Pick<DataSettings, 'dataDir'>,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(ServerLocks) private readonly locks: ServerLocks,
    @inject(ProcessService) private readonly processes: ProcessService,
    @inject(HeadlessClients) private readonly headless: HeadlessClients,
    @inject(ServerStates) private readonly states: ServerStates,
  ) {}

  /** Runs the adapter's readiness probe until it passes (→ running, then headless clients), the process exits, or time is up (→ error). */
  async run(serverId: number, handle: ProcessHandle, config: ConfigValues): Promise<void> {
    const row = await this.servers.row(serverId).catch(ifApiError('NOT_FOUND', null)); // deleted meanwhile
    if (!row) return;
    const isReady = this.adapters.get(row.game_type).capabilities.process_config?.isReady;
    const ctx = serverContext(row, this.settings.dataDir);
    const deadline = this.clock.now() + this.settings.readyTimeoutMs;
    let exited = false;
    void handle.exited.then(() => (exited = true));
    const current = () => !exited && !this.closed && this.processes.handle(serverKey(serverId)) === handle;
    for (;;) {
      if (!current()) return;
      // A probe that fails is one that has not passed yet: asked again until the deadline.
      const notYet = (err: unknown) => {
        this.logger.debug({ serverId, err }, 'readiness probe failed');
        return false;
      };
      if (!isReady || (await isReady(config, ctx).catch(notYet))) break;
      if (this.clock.now() > deadline) {
        this.logger.warn({ serverId, pid: handle.pid }, 'readiness probe did not pass in time; killing the process');
        await this.locks.run(serverId, async () => {
          if (this.processes.handle(serverKey(serverId)) !== handle) return;
          await handle.kill();
          await this.states.set(serverId, ended('error'), {
            type: 'start_failed',
            actor: SYSTEM_ACTOR,
            detail: { reason: `not ready within ${this.settings.readyTimeoutMs} ms` },
          });
        });
        return;
      }
      await this.clock.sleep(PROBE_INTERVAL_MS, this.stopping.signal, `readiness probe:${serverId}`);
    }
    await this.locks.run(serverId, async () => {
      if (this.processes.handle(serverKey(serverId)) !== handle || handle.stopRequested) return;
      const ready = { type: 'running', actor: SYSTEM_ACTOR, detail: { pid: handle.pid } } as const;
      const running = { status: 'running', game: { status: 'running' } } as const;
      if (!(await this.states.transition(serverId, { from: ['starting'], pid: handle.pid }, running, { entry: ready }))) return;
      await this.headless.startAll(await this.servers.row(serverId), config);
    });
  }

  /** At the service's stop: the probes under way end at their next look. */
  stop(): void {
    this.closed = true;
    this.stopping.abort();
  }
}
