import { ApiError, type MissionName } from '@garrison/core';

export const MISSION_EXTENSION = '.pbo';

/** `co10_Escape.Altis.pbo` → name `co10_Escape.Altis`, terrain `Altis`; the terrain is the last part before `.pbo`. */
export function parseMissionFilename(filename: string): MissionName {
  if (!filename.toLowerCase().endsWith(MISSION_EXTENSION)) {
    throw new ApiError('ADAPTER_ERROR', `mission files must end in ${MISSION_EXTENSION}: ${filename}`);
  }
  const name = filename.slice(0, -MISSION_EXTENSION.length);
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) {
    throw new ApiError('ADAPTER_ERROR', `mission file name needs a terrain part, as in name.Terrain${MISSION_EXTENSION}: ${filename}`);
  }
  return { name, terrain: name.slice(dot + 1) };
}
