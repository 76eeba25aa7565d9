import type { Logger } from 'pino';

/** What a long-lived part of the service does when the service starts and stops. No work starts in a constructor. */
export interface Lifecycle {
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/**
 * Starts the service's parts in the order given (each after what it depends on) and stops them in the
 * reverse order, in one place. A part that fails to start stops the ones started before it.
 */
export class Lifecycles {
  private readonly started: [string, Lifecycle][] = [];

  constructor(private readonly logger: Logger) {}

  async start(parts: readonly [string, Lifecycle][]): Promise<void> {
    for (const [name, part] of parts) {
      try {
        await part.start?.();
      } catch (err) {
        this.logger.error({ part: name, err: (err as Error).message }, 'failed to start; stopping what started');
        await this.stop();
        throw err;
      }
      this.started.push([name, part]);
    }
  }

  /** Stops what started, newest first; a part that fails to stop is logged and the rest still stop. */
  async stop(): Promise<void> {
    for (const [name, part] of this.started.splice(0).reverse()) {
      try {
        await part.stop?.();
      } catch (err) {
        this.logger.error({ part: name, err: (err as Error).message }, 'failed to stop');
      }
    }
  }
}
