import { inject, injectable } from 'tsyringe';
import { ACTIVE_STATUSES, ApiError, type Actor, type AdapterDefinition, type ScheduleStep } from '@garrison/core';
import { TOKENS } from '../tokens.js';
import type { Clock } from '../jobs/clock.js';
import type { AdapterRegistry } from '../plugins/registry.js';
import { ServerService } from '../servers/service.js';
import { Supervisor } from '../supervisor/supervisor.js';
import { RemoteAdminService } from '../rcon/service.js';
import { PlayerService } from '../players/service.js';
import { BackupService } from '../backups/service.js';
import { rotationOptionsOf } from '../missions/options.js';
import { fillMessage } from './template.js';
import { ScheduleActionRegistry, type StepOutcome } from './action-registry.js';

/** How often `wait_until_empty` looks at the player list (which the players poll keeps live). */
const EMPTY_CHECK_MS = 5_000;

export type { StepOutcome } from './action-registry.js';

const text = (payload: Record<string, unknown> | undefined, key: string) => (typeof payload?.[key] === 'string' ? payload[key] : '');

/**
 * A `set_mission` step's options in the form the game stores them, by the game's rotation options (as a
 * rotation entry's and a play's are): an option the game has not, or a value it does not take, is 400 naming
 * `<at>.<option>` (`steps[0].payload.difficulty`). A game without missions has no options.
 */
function missionOptions(adapter: AdapterDefinition, payload: Record<string, unknown>, at: string): Record<string, string> {
  const { name: _name, ...sent } = payload;
  const manager = adapter.capabilities.mission_manager;
  if (!manager) {
    const option = Object.keys(sent)[0];
    if (option !== undefined) throw new ApiError('VALIDATION_ERROR', `unknown field '${at}.${option}'`);
    return {};
  }
  return rotationOptionsOf(manager, sent, {
    problem: (option) => `field '${option === null ? at : `${at}.${option}`}'`,
    path: (option) => `${at}.${option}`,
  });
}

/**
 * Why a step cannot be kept (a payload its action does not take, an action the server's game lacks),
 * or null: checked when a schedule is written, so that a run never meets it. A `set_mission`'s options
 * are refused by the missions feature's own check, which throws its 400 itself.
 */
export function stepProblem(step: ScheduleStep, adapter: AdapterDefinition, index: number, more: ScheduleActionRegistry): string | null {
  const at = `steps[${index}]`;
  const remote = adapter.capabilities.remote_admin;
  const p = step.payload ?? {};
  switch (step.action) {
    case 'rcon_say':
      if (!text(p, 'message').trim() || text(p, 'message').length > 500) return `${at}.payload.message: a message of 1 to 500 characters`;
      return remote?.say ? null : `${at}: this game has no command to message every player`;
    case 'rcon_command': {
      const command = text(p, 'command').trim();
      if (!command || command.length > 500) return `${at}.payload.command: a command of 1 to 500 characters`;
      // One line, as the RCon endpoint takes it: a line break would be a second command the audit trail does not show as one.
      // eslint-disable-next-line no-control-regex -- control characters are what this pattern is for
      if (/[\x00-\x1f\x7f]/.test(command)) return `${at}.payload.command: one line of text, without control characters`;
      if (!remote) return `${at}: this game has no remote admin`;
      const problem = remote.commandProblem?.(command);
      return problem ? `${at}.payload.command: ${problem}` : null;
    }
    case 'set_mission': {
      if (!remote?.playMission) return `${at}: this game has no command to change the mission`;
      const name = text(p, 'name');
      const manager = adapter.capabilities.mission_manager;
      try {
        manager?.parseMissionFilename(`${name}${manager.missionExtension}`);
      } catch (err) {
        return `${at}.payload.name: ${(err as Error).message}`;
      }
      missionOptions(adapter, p, `${at}.payload`);
      return null;
    }
    case 'wait_until_empty': {
      const max = p.max_wait_s;
      if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > 86_400)
        return `${at}.payload.max_wait_s: whole seconds from 1 to 86400`;
      if (p.on_timeout !== undefined && p.on_timeout !== 'proceed' && p.on_timeout !== 'abort')
        return `${at}.payload.on_timeout: "proceed" or "abort"`;
      return null;
    }
    case 'backup':
      return p.include_missions === undefined || typeof p.include_missions === 'boolean'
        ? null
        : `${at}.payload.include_missions: true or false`;
    case 'restart':
    case 'stop':
    case 'start':
      return null;
    default: {
      const handler = more.get(step.action);
      return handler ? handler.problem(step, adapter, at) : `${at}.action: ${step.action} is not available on this service`;
    }
  }
}

/** The steps' actions, each through the service that owns it, by the schedule as actor. */
@injectable()
export class ScheduleActions {
  constructor(
    @inject(TOKENS.Adapters) private readonly adapters: AdapterRegistry,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(ServerService) private readonly servers: ServerService,
    @inject(Supervisor) private readonly supervisor: Supervisor,
    @inject(RemoteAdminService) private readonly remoteAdmin: RemoteAdminService,
    @inject(PlayerService) private readonly players: PlayerService,
    @inject(BackupService) private readonly backups: BackupService,
    @inject(ScheduleActionRegistry) private readonly more: ScheduleActionRegistry,
  ) {}

  /**
   * Performs one step; throws (with the reason) when it fails. `secondsToRestart`: for a `say`'s `{minutes}`;
   * `succeeded`: the run's steps before this one that succeeded (what they left for its restart to do).
   */
  async perform(
    serverId: number,
    step: ScheduleStep,
    actor: Actor,
    secondsToRestart: number | null,
    signal: AbortSignal,
    succeeded: readonly ScheduleStep[] = [],
  ): Promise<StepOutcome> {
    const p = step.payload ?? {};
    switch (step.action) {
      case 'rcon_say':
        await this.remoteAdmin.say(serverId, fillMessage(text(p, 'message'), secondsToRestart), actor);
        return { done: true };
      case 'rcon_command':
        await this.remoteAdmin.adminCommand(serverId, text(p, 'command'), actor);
        return { done: true };
      case 'set_mission': {
        const adapter = this.adapters.get((await this.servers.row(serverId)).game_type);
        const remote = adapter.capabilities.remote_admin;
        if (!remote?.playMission) throw new ApiError('NOT_SUPPORTED', 'this game has no command to change the mission');
        // In the form the game stores them (`veteran` is `Veteran`); checked again, as the adapter may have changed since the save.
        const options = missionOptions(adapter, p, 'payload');
        // Audited as the command the adapter composed, as a command typed by the schedule's actor.
        await remote.playMission((command) => this.remoteAdmin.adminCommand(serverId, command, actor), text(p, 'name'), options);
        return { done: true };
      }
      case 'restart': {
        // A restart brings the server up whatever it was doing: a stopped or crashed server is started.
        const running = ACTIVE_STATUSES.includes((await this.servers.row(serverId)).status);
        const downtime = this.whileStopped(serverId, succeeded, actor, signal);
        if (!downtime) {
          await (running ? this.supervisor.restart(serverId, actor) : this.supervisor.start(serverId, actor));
          return { done: true };
        }
        if (running) await this.supervisor.stop(serverId, actor);
        await downtime().catch((err: Error) => {
          throw new Error(`${err.message}; the server stays stopped`);
        });
        await this.supervisor.start(serverId, actor);
        return { done: true };
      }
      case 'stop':
        await this.supervisor.stop(serverId, actor);
        return { done: true };
      case 'start':
        await this.supervisor.start(serverId, actor);
        return { done: true };
      case 'wait_until_empty':
        return this.waitUntilEmpty(serverId, Number(p.max_wait_s), p.on_timeout === 'abort' ? 'abort' : 'proceed', signal);
      case 'backup': {
        // An automatic backup: the server's retention prunes it in time.
        const { done } = await this.backups.create(
          serverId,
          { include_missions: p.include_missions === true, note: `by schedule ${actor.name}` },
          actor,
          'automatic',
        );
        const backup = await done;
        if (backup.status !== 'done') throw new Error(`the backup failed: ${backup.error ?? 'no reason given'}`);
        return { done: true };
      }
      default: {
        const handler = this.more.get(step.action);
        if (!handler) throw new Error(`${step.action} is not available on this service`);
        return handler.perform(serverId, step, actor, signal);
      }
    }
  }

  /** What the earlier steps left for a restart to do while the server is down (an update's install), or null. */
  private whileStopped(serverId: number, succeeded: readonly ScheduleStep[], actor: Actor, signal: AbortSignal) {
    const work = succeeded.flatMap((step) => {
      const handler = this.more.get(step.action);
      return handler?.whileStopped ? [() => handler.whileStopped!(serverId, step, actor, signal)] : [];
    });
    if (!work.length) return null;
    return async () => {
      for (const each of work) await each();
    };
  }

  /** Waits while players are in (the live list), up to `maxWaitS`; then proceeds or aborts the run. */
  private async waitUntilEmpty(
    serverId: number,
    maxWaitS: number,
    onTimeout: 'proceed' | 'abort',
    signal: AbortSignal,
  ): Promise<StepOutcome> {
    const deadline = this.clock.now() + maxWaitS * 1000;
    for (;;) {
      const { player_count } = await this.players.list(serverId);
      if (player_count === 0) return { done: true };
      if (this.clock.now() >= deadline) {
        return onTimeout === 'abort' ? { abort: `${player_count} players still in after ${maxWaitS} s` } : { done: true };
      }
      await this.clock.sleep(Math.min(EMPTY_CHECK_MS, deadline - this.clock.now()), signal, `schedule.wait_until_empty:${serverId}`);
    }
  }
}
