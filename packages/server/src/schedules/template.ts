import type { ScheduleStep } from '@garrison/core';

export interface RestartTemplateInput {
  kind: 'restart_with_warnings';
  warn_minutes?: number[];
  message?: string;
  backup?: boolean;
}

const DEFAULT_WARNINGS = [15, 10, 5, 1];
const DEFAULT_MESSAGE = 'Server restart in {minutes} min';

/**
 * "Restart with warnings" as steps: the restart at the schedule's time (offset 0), a `say` at each warning
 * before it (negative offsets: the run starts with the earliest), an optional backup just before the
 * restart, and the restart, which runs even when the backup failed.
 */
export function expandTemplate(template: RestartTemplateInput): ScheduleStep[] {
  const warnings = [...new Set(template.warn_minutes ?? DEFAULT_WARNINGS)].sort((a, b) => b - a);
  const message = template.message ?? DEFAULT_MESSAGE;
  const steps: ScheduleStep[] = warnings.map((minutes) => ({
    at_s: -minutes * 60,
    action: 'rcon_say',
    payload: { message },
    continue_on_failure: true,
  }));
  if (template.backup) steps.push({ at_s: 0, action: 'backup', payload: {}, continue_on_failure: true });
  steps.push({ at_s: 0, action: 'restart', payload: {}, continue_on_failure: false });
  return steps;
}

/** A `say` message with the time left until the run's restart (or stop): `{minutes}`, `{seconds}`. */
export function fillMessage(message: string, secondsLeft: number | null): string {
  if (secondsLeft === null) return message;
  return message.replace(/\{minutes\}/g, String(Math.round(secondsLeft / 60))).replace(/\{seconds\}/g, String(secondsLeft));
}
