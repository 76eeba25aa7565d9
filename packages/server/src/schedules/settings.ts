import { isTimeZone } from './calendar.js';
import { declareSettings, integer, SettingError } from '../setting-specs.js';

export interface ScheduleSettings {
  /** The time zone of a schedule created without one. */
  scheduleTimezone: string;
  schedulePollMs: number;
}

export const scheduleSettings = declareSettings<ScheduleSettings>({
  feature: 'schedules',
  defaults: { scheduleTimezone: 'UTC', schedulePollMs: 1_000 },
  specs: [
    {
      key: 'scheduleTimezone',
      env: 'GARRISON_SCHEDULE_TIMEZONE',
      meaning: 'the IANA time zone of a schedule created without one',
      parse: (raw, name) => {
        if (!isTimeZone(raw)) throw new SettingError(`${name} must be an IANA time zone (Europe/Berlin, UTC…); got ${JSON.stringify(raw)}`);
        return raw;
      },
    },
    { key: 'schedulePollMs', env: 'GARRISON_SCHEDULE_POLL_MS', meaning: 'how often due schedule runs are looked for', parse: integer(100) },
  ],
});
