import type { FeatureModule, NoRepositories } from '../modules/feature-module.js';
import { steamSettings, type SteamSettings } from './settings.js';

/**
 * Steam: installing and updating game servers and their Workshop mods with SteamCMD. For now its
 * settings (resolved at start, read by its services from TOKENS.Settings as `SteamSettings`).
 */
export const steamModule: FeatureModule<NoRepositories, SteamSettings> = {
  name: 'steam',
  settings: steamSettings,
};
