import { declareSettings, integer } from '../setting-specs.js';

export interface MissionSettings {
  /** The largest mission upload (the spec's 500 MB, as MiB so that a 500 MiB file fits). */
  missionUploadLimitBytes: number;
}

export const missionSettings = declareSettings<MissionSettings>({
  feature: 'missions',
  defaults: { missionUploadLimitBytes: 500 * 1024 * 1024 },
  specs: [
    {
      key: 'missionUploadLimitBytes',
      env: 'GARRISON_MISSION_UPLOAD_LIMIT_BYTES',
      meaning: 'largest mission upload (500 MiB); larger is cut off with 413',
      parse: integer(1),
    },
  ],
});
