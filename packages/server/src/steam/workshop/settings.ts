import { declareSettings, integer } from '../../setting-specs.js';

/** How often each node asks Steam whether its servers' Workshop items have updates. */
export interface WorkshopSettings {
  workshopCheckHours: number;
}

export const workshopSettings = declareSettings<WorkshopSettings>({
  feature: 'workshop',
  defaults: { workshopCheckHours: 6 },
  specs: [
    {
      key: 'workshopCheckHours',
      env: 'GARRISON_WORKSHOP_CHECK_HOURS',
      meaning: "hours between two checks of the installed Workshop items against Steam's time_updated (docs/workshop.md)",
      parse: integer(1, 24 * 30),
    },
  ],
});
