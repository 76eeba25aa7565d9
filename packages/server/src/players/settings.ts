import { declareSettings, integer } from '../setting-specs.js';

export interface PlayerSettings {
  /** How often the player list is asked for over remote admin. */
  playersPollMs: number;
}

export const playerSettings = declareSettings<PlayerSettings>({
  feature: 'players',
  defaults: { playersPollMs: 10_000 },
  specs: [{ key: 'playersPollMs', env: 'GARRISON_PLAYERS_POLL_MS', meaning: 'player list poll over remote admin', parse: integer(1) }],
});
