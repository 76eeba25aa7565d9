import { injectable } from 'tsyringe';
import type { Actor, AdapterDefinition, ScheduleStep } from '@garrison/core';

/** What a step's action came to: done, or the run must end here (a wait that gave up, nothing to update) with `abort`. */
export type StepOutcome = { done: true } | { abort: string };

/**
 * An action another feature brings to schedules (the Steam feature's `update_server`…), so that the
 * schedules feature names none of them: its check at save, its work at its step, and what it leaves for the
 * run's `restart` to do while the server is down between its stop and its start.
 */
export interface ScheduleActionHandler {
  /** Why the step cannot be kept on a server of this game (`at`: `steps[2]`), or null. */
  problem(step: ScheduleStep, adapter: AdapterDefinition, at: string): string | null;
  /** The step itself: throws (with the reason) when it fails. */
  perform(serverId: number, step: ScheduleStep, actor: Actor, signal: AbortSignal): Promise<StepOutcome>;
  /** After this step succeeded, the run's later `restart` does this between its stop and its start. */
  whileStopped?(serverId: number, step: ScheduleStep, actor: Actor, signal: AbortSignal): Promise<void>;
}

@injectable()
export class ScheduleActionRegistry {
  private readonly handlers = new Map<string, ScheduleActionHandler>();

  register(action: ScheduleStep['action'], handler: ScheduleActionHandler): void {
    if (this.handlers.has(action)) throw new Error(`schedule action ${action} is registered twice`);
    this.handlers.set(action, handler);
  }

  get(action: string): ScheduleActionHandler | undefined {
    return this.handlers.get(action);
  }
}
