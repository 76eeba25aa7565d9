import { declareSettings } from '../setting-specs.js';

export interface BanSettings {
  /** How often timed bans are checked for expiry (decisions: gone within 60 s of `expires_at`). */
  banExpiryCheckMs: number;
}

// Set by tests only: a deployer has the decision's bound.
export const banSettings = declareSettings<BanSettings>({ feature: 'bans', defaults: { banExpiryCheckMs: 15_000 }, specs: [] });
