import { inject, injectable } from 'tsyringe';
import { IDLE_STATUSES } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { InProcessEventBus } from '../events/bus.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { LiveFigures } from '../metrics/live-values.js';

/**
 * The live figures (players, CPU, memory) of the servers other nodes run, as their events tell them,
 * so that a server list read from any instance shows them as its owner does.
 */
@injectable()
export class RemoteFigures implements Lifecycle {
  private unsubscribe: (() => void) | null = null;

  constructor(
    @inject(TOKENS.Events) private readonly events: InProcessEventBus,
    @inject(TOKENS.NodeId) private readonly nodeId: string,
    @inject(LiveFigures) private readonly live: LiveFigures,
  ) {}

  start(): void {
    this.unsubscribe = this.events.subscribe(
      (event) => {
        if (event.origin === this.nodeId) return;
        if (event.type === 'players') this.live.update(event.server_id, { player_count: event.data.count });
        else if (event.type === 'metrics')
          this.live.update(event.server_id, { cpu_percent: event.data.cpu_percent, ram_mb: event.data.ram_mb });
        else if (event.type === 'server_status' && IDLE_STATUSES.includes(event.data.status)) this.live.clear(event.server_id);
      },
      null,
      { remote: true },
    );
  }

  stop(): void {
    this.unsubscribe?.();
  }
}
