import type { Endpoints, ResponseOf } from '@garrison/sdk';
import { optionsSuffix } from '../../format.js';

export type Schedule = ResponseOf<Endpoints['listSchedules']>[number];
export type Step = Schedule['steps'][number];

const text = (payload: Step['payload'], key: string) => (typeof payload?.[key] === 'string' ? payload[key] : '');
const MAIN = ['restart', 'stop', 'start'];

/** A length of time as people say it: `15 min`, `90 s`, `2 h`. */
function duration(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 3600) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Where a step is, from the schedule's time. */
export function offsetText(atS: number): string {
  if (atS === 0) return 'At the set time';
  return `${duration(Math.abs(atS))} ${atS < 0 ? 'before' : 'after'}`;
}

/** What a step does, as a sentence; a warning's `{minutes}` filled in as the players will read it. */
export function stepSentence(step: Step, steps: Step[]): string {
  const p = step.payload ?? {};
  switch (step.action) {
    case 'rcon_say': {
      const target = steps.find((s) => s.at_s >= step.at_s && (s.action === 'restart' || s.action === 'stop'));
      const left = target ? target.at_s - step.at_s : null;
      const message =
        left === null
          ? text(p, 'message')
          : text(p, 'message')
              .replace(/\{minutes\}/g, String(Math.round(left / 60)))
              .replace(/\{seconds\}/g, String(left));
      return `Say to everyone: “${message}”`;
    }
    case 'rcon_command':
      return `Send the command ${text(p, 'command')}`;
    case 'restart':
      return 'Restart the server';
    case 'stop':
      return 'Stop the server';
    case 'start':
      return 'Start the server';
    case 'backup':
      return p.include_missions === true ? 'Back up the server with its missions' : 'Back up the server';
    case 'set_mission':
      // The options after the name are the game's (a rotation entry's), whatever they are.
      return `Switch to the mission ${text(p, 'name')}${optionsSuffix(p)}`;
    case 'update_mods':
      return 'Download the outdated Workshop mods; none, and the run ends here';
    case 'update_server':
      return 'Ask Steam for a newer build of the server, installed at the restart; none, and the run ends here';
    case 'wait_until_empty':
      return (
        `Wait until no one is in, at most ${duration(Number(p.max_wait_s))}, ` +
        `then ${p.on_timeout === 'abort' ? 'give up this run' : 'go on'}`
      );
    default:
      return step.action;
  }
}

const VERBS: Record<string, string> = { restart: 'Restart', stop: 'Stop', start: 'Start' };

/**
 * The plan in a line, times given by `at` (an offset from the schedule's time): "Restart at 04:00
 * (warnings from 03:45)".
 */
export function planText(steps: Step[], at: (offsetS: number) => string): string {
  if (!steps.length) return '';
  const sorted = [...steps].sort((a, b) => a.at_s - b.at_s);
  const main = sorted.find((s) => MAIN.includes(s.action));
  const first = sorted[0];
  if (!main) return `Steps from ${at(first.at_s)}`;
  const before = sorted.filter((s) => s.at_s < main.at_s);
  const head = `${VERBS[main.action]} at ${at(main.at_s)}`;
  if (!before.length) return head;
  return `${head} (${before.every((s) => s.action === 'rcon_say') ? 'warnings' : 'first step'} from ${at(first.at_s)})`;
}

/** The one time of day a cron expression names (`0 4 * * *` → 240 minutes), or null when it names more. */
function cronMinuteOfDay(cron: string): number | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5 || !/^\d+$/.test(fields[0]) || !/^\d+$/.test(fields[1])) return null;
  const [minute, hour] = [Number(fields[0]), Number(fields[1])];
  return minute < 60 && hour < 24 ? hour * 60 + minute : null;
}

/** An offset as a time of day from a cron's one time (`04:00` − 15 min → `03:45`), or relative to "the set time". */
export function cronAt(cron: string): (offsetS: number) => string {
  const base = cronMinuteOfDay(cron);
  return (offsetS) => {
    if (base === null || offsetS % 60 !== 0)
      return offsetS === 0 ? 'the set time' : `${duration(Math.abs(offsetS))} ${offsetS < 0 ? 'before' : 'after'} the set time`;
    const m = (((base + offsetS / 60) % 1440) + 1440) % 1440;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  };
}

/** The template a schedule's steps were made from, when they are exactly its shape (for editing them as it). */
export function templateOf(steps: Step[]): { warn_minutes: number[]; message: string; backup: boolean } | null {
  const says = steps.filter((s) => s.action === 'rcon_say');
  const rest = steps.filter((s) => s.action !== 'rcon_say');
  const restart = rest.find((s) => s.action === 'restart');
  const backup = rest.find((s) => s.action === 'backup');
  if (!restart || restart.at_s !== 0 || rest.length !== (backup ? 2 : 1) || (backup && backup.at_s !== 0)) return null;
  const messages = new Set(says.map((s) => text(s.payload, 'message')));
  if (!says.length || messages.size !== 1 || says.some((s) => s.at_s >= 0 || s.at_s % 60 !== 0)) return null;
  return { warn_minutes: says.map((s) => -s.at_s / 60).sort((a, b) => b - a), message: [...messages][0], backup: Boolean(backup) };
}
