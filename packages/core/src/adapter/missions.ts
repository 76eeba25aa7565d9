import type { TObject } from '../typebox.js';
import type { ServerContext } from './contract.js';

export interface MissionName {
  name: string;
  /**
   * What else the game's file names carry, as the API shows it beside the name: the first game's
   * `{terrain}`; `{}` for a game whose missions are maps.
   */
  parts: Record<string, string>;
  /** Something to tell whoever named the mission: it loads, but maybe not as they meant (`mission_v2.0`). */
  warning?: string;
}

/**
 * The options of one rotation entry besides its name (the first game's difficulty; none for a map
 * cycle): a closed schema, and how a value as sent becomes the value as stored.
 */
export interface RotationOptions {
  /** Closed TypeBox object of the options, each optional, with its allowed values (shown by the console). */
  readonly schema: TObject;
  /**
   * An entry's options as sent (`{difficulty: 'veteran'}`) in their stored form (`{difficulty: 'Veteran'}`,
   * absent ones as their default), or a string saying what is wrong that starts with the option's name and
   * a colon (`difficulty: "x" is none of …`), so that the service can say where it was sent. The service
   * refuses an option the schema does not name before it calls this.
   */
  normalize(options: Record<string, unknown>): Record<string, string> | string;
}

export interface MissionManager {
  readonly missionExtension: string;
  /** What a person calls one (`Mission`, `Map`), for the console and messages. */
  readonly missionLabel?: string;
  missionDirectory(ctx: ServerContext): string;
  /**
   * Name and parts of a mission file; throws `ADAPTER_ERROR` naming what is wrong for a name the game
   * would not load. It is the one rule for mission names: a name in the rotation or a command is checked
   * as the file it names (name + extension).
   */
  parseMissionFilename(filename: string): MissionName;
  /** Where the rotation (an array of `{name, ...options}`) lives in the config. */
  readonly rotation: { section: string; field: string };
  readonly rotationOptions: RotationOptions;
}
