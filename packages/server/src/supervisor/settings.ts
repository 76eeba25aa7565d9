import { declareSettings, integer } from '../setting-specs.js';

/** How long the supervisor waits on a game, and how it backs off restarting one that keeps crashing. */
export interface SupervisorSettings {
  /** A graceful stop waits this long for the game to exit before killing it (the spec's 30 s). */
  stopTimeoutMs: number;
  /** A start that has not passed the readiness probe after this long is an error (decisions: 120 s). */
  readyTimeoutMs: number;
  /** Auto-restart waits this long after the first crash, doubling up to restartBackoffMaxMs. */
  restartBackoffMs: number;
  restartBackoffMaxMs: number;
}

export const supervisorSettings = declareSettings<SupervisorSettings>({
  feature: 'supervisor',
  defaults: { stopTimeoutMs: 30_000, readyTimeoutMs: 120_000, restartBackoffMs: 2000, restartBackoffMaxMs: 60_000 },
  // The start and restart waits are set by tests only: a deployer has the spec's values.
  specs: [
    {
      key: 'stopTimeoutMs',
      env: 'GARRISON_STOP_TIMEOUT_MS',
      meaning: 'how long a graceful stop waits for the game before killing it',
      parse: integer(1),
    },
  ],
});
